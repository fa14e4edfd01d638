package io.sf2loki.tck;

import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The operations of the shard world and their generators; each prints as a short line so that a
 * shrunk counterexample reads as a script.
 */
final class ShardSteps {

  private ShardSteps() {}

  /** One operation on the world. */
  interface Op<E extends ShardElection> {
    void apply(ShardWorld<E> w) throws Exception;
  }

  /** An operation followed by {@code afterSeconds} of simulated time. */
  record Step<E extends ShardElection>(Op<E> op, int afterSeconds) {
    @Override
    public String toString() {
      return op + ", then " + afterSeconds + "s";
    }
  }

  /** A whole example: replica slots, how many start alive, and the steps. */
  record Scenario<E extends ShardElection>(int slots, int alive, List<Step<E>> steps) {
    @Override
    public String toString() {
      return slots
          + " replica slots, "
          + alive
          + " alive at first:\n  "
          + steps.stream().map(Step::toString).collect(Collectors.joining("\n  "));
    }
  }

  static String name(int i) {
    return String.valueOf((char) ('a' + i));
  }

  record Wait<E extends ShardElection>() implements Op<E> {
    @Override
    public void apply(ShardWorld<E> w) {}

    @Override
    public String toString() {
      return "wait";
    }
  }

  /** The replica commits one key of the shard, if it leads it. */
  record Commit<E extends ShardElection>(int slot, int shard) implements Op<E> {
    @Override
    public void apply(ShardWorld<E> w) {
      w.commit(slot, shard);
    }

    @Override
    public String toString() {
      return "commit(" + name(slot) + ", shard " + shard + ")";
    }
  }

  /** {@code kill -9} of the replica: no drain, no release, its roster entry expires. */
  record Kill<E extends ShardElection>(int slot) implements Op<E> {
    @Override
    public void apply(ShardWorld<E> w) throws Exception {
      w.kill(slot);
    }

    @Override
    public String toString() {
      return "kill -9 " + name(slot);
    }
  }

  /** SIGTERM, then a new process in the slot (a rolling restart). */
  record Restart<E extends ShardElection>(int slot) implements Op<E> {
    @Override
    public void apply(ShardWorld<E> w) throws Exception {
      w.restart(slot);
    }

    @Override
    public String toString() {
      return "restart " + name(slot);
    }
  }

  /** SIGTERM and no new process: one replica fewer. */
  record ScaleDown<E extends ShardElection>(int slot) implements Op<E> {
    @Override
    public void apply(ShardWorld<E> w) throws Exception {
      w.scaleDown(slot);
    }

    @Override
    public String toString() {
      return "scale down " + name(slot);
    }
  }

  /** A new process in the first empty slot. */
  record ScaleUp<E extends ShardElection>() implements Op<E> {
    @Override
    public void apply(ShardWorld<E> w) throws Exception {
      w.scaleUp();
    }

    @Override
    public String toString() {
      return "scale up";
    }
  }

  /** Scenarios of up to {@code maxSteps} steps among 2 or 3 replica slots. */
  static <E extends ShardElection> Gen<Scenario<E>> scenarios(int maxSteps) {
    return Generate.range(2, 3).flatMap(n -> ShardSteps.<E>scenarios(n, maxSteps));
  }

  private static <E extends ShardElection> Gen<Scenario<E>> scenarios(int n, int maxSteps) {
    Gen<List<Step<E>>> steps = lists().of(ShardSteps.<E>steps(n)).ofSizeBetween(1, maxSteps);
    return Generate.range(1, n).zip(steps, (alive, s) -> new Scenario<E>(n, alive, s));
  }

  private static <E extends ShardElection> Gen<Step<E>> steps(int n) {
    Gen<Integer> slots = Generate.range(0, n - 1);
    List<Pair<Integer, Gen<Op<E>>>> ops = new ArrayList<>();
    ops.add(Pair.of(2, Generate.<Op<E>>constant(new Wait<>())));
    ops.add(Pair.of(3, slots.<Integer, Op<E>>zip(Generate.range(0, 3), Commit::new)));
    ops.add(Pair.of(1, slots.<Op<E>>map(Kill::new)));
    ops.add(Pair.of(1, slots.<Op<E>>map(Restart::new)));
    ops.add(Pair.of(1, slots.<Op<E>>map(ScaleDown::new)));
    ops.add(Pair.of(2, Generate.<Op<E>>constant(new ScaleUp<>())));
    return Generate.frequency(ops).zip(Generate.range(0, 25), Step::new);
  }
}
