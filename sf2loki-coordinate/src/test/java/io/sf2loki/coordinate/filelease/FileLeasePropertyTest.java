package io.sf2loki.coordinate.filelease;

import static org.quicktheories.QuickTheory.qt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random sequences of renewals, pauses, commits, restarts, crashes and lease edits among two or
 * three file_lease contenders sharing one real state file, each claiming its epoch at acquire as
 * the engine does. After every step the properties of {@link
 * io.sf2loki.coordinate.support.TermLedger} hold: the persisted epoch never falls; claimed epochs
 * strictly increase; no two contenders lead with one epoch (and, while nobody edits the lease, no
 * two lead at all); the only leader is never fenced; an ended or superseded term never lands a
 * commit; onAcquire and onLose strictly alternate.
 */
class FileLeasePropertyTest {

  private static final int EXAMPLES = 40;
  private static final int MAX_STEPS = 20;

  @TempDir Path root;

  @Test
  void untouchedLeaseNeverHasTwoLeadersAndEpochsOnlyGrow() {
    qt().withFixedSeed(20260101L)
        .withExamples(EXAMPLES)
        .withShrinkCycles(60)
        .forAll(FileLeaseSteps.scenarios(false, MAX_STEPS))
        .checkAssert(this::play);
  }

  @Test
  void deletedCorruptedOrHandEditedLeaseNeverLetsAStaleLeaderCommit() {
    qt().withFixedSeed(20260102L)
        .withExamples(EXAMPLES)
        .withShrinkCycles(60)
        .forAll(FileLeaseSteps.scenarios(true, MAX_STEPS))
        .checkAssert(this::play);
  }

  private void play(FileLeaseSteps.Scenario scenario) {
    Path dir;
    try {
      dir = Files.createTempDirectory(root, "example");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    FileLeaseWorld world =
        new FileLeaseWorld(dir, scenario.contenders(), scenario.initialStoreEpoch());
    try {
      for (FileLeaseSteps.Step step : scenario.steps()) {
        world.run(step);
      }
    } catch (Exception e) {
      throw new AssertionError("scenario threw " + e, e);
    } finally {
      try {
        world.close();
      } catch (Exception e) {
        throw new AssertionError("stopping the contenders threw " + e, e);
      }
    }
  }
}
