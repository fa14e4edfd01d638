package io.sf2loki.tck;

import static org.quicktheories.QuickTheory.qt;

import io.sf2loki.spi.NamedThreadFactory;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Random sequences of renewals, pauses, outages, commits, graceful restarts, crashes and lease
 * edits among two or three contenders of one lease coordinator, sharing one lease and one
 * checkpoint store, each contender claiming its epoch at acquire as the engine does. After every
 * step these properties hold:
 *
 * <ul>
 *   <li>the persisted epoch never falls, and claimed epochs strictly increase;
 *   <li>no two contenders lead with one epoch, and while nobody touched the lease, no two lead at
 *       all (nor is a claim refused);
 *   <li>the only leader is never fenced; an ended or superseded term never lands a commit;
 *   <li>{@code onAcquire} and {@code onLose} strictly alternate.
 * </ul>
 *
 * <p>Examples may start with a store at an epoch and with a lease a gone holder left behind.
 * Scenarios print as scripts, so a shrunk counterexample reads as a reproduction. A backend's test
 * extends this class, supplies a {@link LeaseElection} per example (the same adapter as its {@link
 * LeaseCoordinatorContract}) and names its own {@link LeaseDamage}s.
 *
 * @param <E> the backend's election adapter
 */
public abstract class LeaseCoordinatorProperties<E extends LeaseElection> {

  private static final int MAX_STEPS = 20;

  /** A new election (one lease nobody holds, an empty store) on {@code time}, for one example. */
  protected abstract E newElection(SimulatedTime time) throws Exception;

  /** The backend's own ways to damage its lease (truncation, a corrupt body, an emptied spec). */
  protected abstract List<LeaseDamage<E>> damages();

  /** The seed of the first property; the second uses the next one. Fixed, so runs repeat. */
  protected long seed() {
    return 20260101L;
  }

  /** Examples per property. */
  protected int examples() {
    return 40;
  }

  /** With nobody touching the lease there is never more than one leader, and epochs only grow. */
  @Test
  void untouchedLeaseNeverHasTwoLeadersAndEpochsOnlyGrow() {
    qt().withFixedSeed(seed())
        .withExamples(examples())
        .withShrinkCycles(60)
        .forAll(LeaseSteps.scenarios(false, MAX_STEPS, damages()))
        .checkAssert(this::play);
  }

  /** A lease deleted, corrupted or edited by hand never lets a stale leader commit. */
  @Test
  void deletedCorruptedOrHandEditedLeaseNeverLetsAStaleLeaderCommit() {
    qt().withFixedSeed(seed() + 1)
        .withExamples(examples())
        .withShrinkCycles(60)
        .forAll(LeaseSteps.scenarios(true, MAX_STEPS, damages()))
        .checkAssert(this::play);
  }

  private void play(LeaseSteps.Scenario<E> scenario) {
    SimulatedTime time =
        new SimulatedTime(
            Instant.parse("2026-01-01T12:00:00Z"),
            new NamedThreadFactory("sf2loki-tck-participant"));
    E election;
    LeaseWorld<E> world;
    try {
      election = newElection(time);
      world = new LeaseWorld<>(time, election, scenario);
    } catch (Exception e) {
      throw new AssertionError("setting up threw " + e, e);
    }
    try {
      for (LeaseSteps.Step<E> step : scenario.steps()) {
        world.run(step);
      }
    } catch (Exception e) {
      throw new AssertionError("scenario threw " + e, e);
    } finally {
      try {
        world.close();
        election.close();
      } catch (Exception e) {
        throw new AssertionError("stopping the contenders threw " + e, e);
      }
    }
  }
}
