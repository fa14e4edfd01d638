package io.sf2loki.tck;

import static org.quicktheories.QuickTheory.qt;

import io.sf2loki.spi.NamedThreadFactory;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The lease properties extended to shards: two or three replica slots share a few shards (a lease
 * and a checkpoint store each), every replica running one coordinator per shard under its shard
 * balance, through random kills ({@code kill -9}), rolling restarts, scale-downs, scale-ups,
 * commits and the passing of time. After every step, for every shard:
 *
 * <ul>
 *   <li>the persisted epoch never falls, and claimed epochs strictly increase;
 *   <li>never two leaders at one instant;
 *   <li>no ended or superseded term lands a commit, and the only leader is never fenced.
 * </ul>
 *
 * And once things settle (a replica alive, a ttl and a few renew intervals without changes): every
 * shard is led by exactly one replica, and none leads more than {@code ceil(M / N) + slack}.
 *
 * @param <E> the backend's shard adapter
 */
public abstract class ShardCoordinatorProperties<E extends ShardElection> {

  private static final int MAX_STEPS = 10;

  /** A new election (leases nobody holds, empty stores, no roster) on {@code time}. */
  protected abstract E newElection(SimulatedTime time) throws Exception;

  /** The seed of the property. Fixed, so runs repeat. */
  protected long seed() {
    return 20260301L;
  }

  /** Examples per run. */
  protected int examples() {
    return 12;
  }

  @Test
  void shardsAreLedOnceWithGrowingEpochsAndBalancedAfterChurn() {
    qt().withFixedSeed(seed())
        .withExamples(examples())
        .withShrinkCycles(20)
        .forAll(ShardSteps.<E>scenarios(MAX_STEPS))
        .checkAssert(this::play);
  }

  private void play(ShardSteps.Scenario<E> scenario) {
    SimulatedTime time =
        new SimulatedTime(
            Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sf2loki-tck-shard"));
    E election;
    ShardWorld<E> world;
    try {
      election = newElection(time);
      world = new ShardWorld<>(time, election, scenario.slots(), scenario.alive());
    } catch (Exception e) {
      throw new AssertionError("setting up threw " + e, e);
    }
    try {
      for (ShardSteps.Step<E> step : scenario.steps()) {
        world.run(step);
      }
      world.settle();
    } catch (Exception e) {
      throw new AssertionError("scenario threw " + e, e);
    } finally {
      try {
        world.close();
        election.close();
      } catch (Exception e) {
        throw new AssertionError("stopping the replicas threw " + e, e);
      }
    }
  }
}
