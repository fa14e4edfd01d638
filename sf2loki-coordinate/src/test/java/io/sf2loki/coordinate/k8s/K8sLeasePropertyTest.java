package io.sf2loki.coordinate.k8s;

import static org.quicktheories.QuickTheory.qt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random sequences of renewals, pauses, API outages, commits, restarts, crashes and kubectl edits
 * among two or three k8s_lease contenders sharing one Lease (on an in-memory API server with real
 * resourceVersion CAS) and one real state file, each contender claiming its epoch at acquire as the
 * engine does. After every step the properties of {@link io.sf2loki.coordinate.support.TermLedger}
 * hold: the persisted epoch never falls; claimed epochs strictly increase; no two contenders lead
 * with one epoch (and, while nobody edits the Lease, no two lead at all); the only leader is never
 * fenced; an ended or superseded term never lands a commit; onAcquire and onLose strictly
 * alternate.
 */
class K8sLeasePropertyTest {

  private static final int EXAMPLES = 40;
  private static final int MAX_STEPS = 20;

  @TempDir Path root;

  @Test
  void untouchedLeaseNeverHasTwoLeadersAndEpochsOnlyGrow() {
    qt().withFixedSeed(20260201L)
        .withExamples(EXAMPLES)
        .withShrinkCycles(60)
        .forAll(K8sLeaseSteps.scenarios(false, MAX_STEPS))
        .checkAssert(this::play);
  }

  @Test
  void deletedOrHandEditedLeaseNeverLetsAStaleLeaderCommit() {
    qt().withFixedSeed(20260202L)
        .withExamples(EXAMPLES)
        .withShrinkCycles(60)
        .forAll(K8sLeaseSteps.scenarios(true, MAX_STEPS))
        .checkAssert(this::play);
  }

  private void play(K8sLeaseSteps.Scenario scenario) {
    K8sLeaseWorld world;
    try {
      world = new K8sLeaseWorld(Files.createTempDirectory(root, "example"), scenario);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new AssertionError("setting up threw " + e, e);
    }
    try {
      for (K8sLeaseSteps.Step step : scenario.steps()) {
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
