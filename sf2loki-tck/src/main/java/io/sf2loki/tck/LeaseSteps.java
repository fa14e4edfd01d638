package io.sf2loki.tck;

import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The operations of the lease property world and their generators. Every operation prints as a
 * short line ({@code pause(b, 45s)}) so that a shrunk counterexample reads as a script.
 */
final class LeaseSteps {

  private LeaseSteps() {}

  /** One operation on the world. */
  interface Op<E extends LeaseElection> {
    void apply(LeaseWorld<E> w) throws Exception;

    /** Whether the operation edits the lease behind the contenders' backs. */
    default boolean tampers() {
      return false;
    }
  }

  /** An operation followed by {@code afterSeconds} of simulated time. */
  record Step<E extends LeaseElection>(Op<E> op, int afterSeconds) {
    @Override
    public String toString() {
      return op + ", then " + afterSeconds + "s";
    }
  }

  /**
   * A whole example; {@code initialLease} is the epoch of a lease a gone holder left behind, or -1
   * for none.
   */
  record Scenario<E extends LeaseElection>(
      int contenders, long initialStoreEpoch, int initialLease, List<Step<E>> steps) {
    @Override
    public String toString() {
      return contenders
          + " contenders, store at epoch "
          + initialStoreEpoch
          + (initialLease < 0 ? ", no lease" : ", a lease left at epoch " + initialLease)
          + ":\n  "
          + steps.stream().map(Step::toString).collect(Collectors.joining("\n  "));
    }
  }

  static String name(int i) {
    return String.valueOf((char) ('a' + i));
  }

  record Wait<E extends LeaseElection>() implements Op<E> {
    @Override
    public void apply(LeaseWorld<E> w) {}

    @Override
    public String toString() {
      return "wait";
    }
  }

  /** The contender commits one key through its own store instance, if it holds a term. */
  record Commit<E extends LeaseElection>(int slot) implements Op<E> {
    @Override
    public void apply(LeaseWorld<E> w) {
      w.commit(slot);
    }

    @Override
    public String toString() {
      return "commit(" + name(slot) + ")";
    }
  }

  /** The contender's next lease write (claim, takeover or renewal) stalls first: a GC pause. */
  record Pause<E extends LeaseElection>(int slot, int seconds) implements Op<E> {
    @Override
    public void apply(LeaseWorld<E> w) {
      w.pause(slot, seconds);
    }

    @Override
    public String toString() {
      return "pause(" + name(slot) + ", " + seconds + "s)";
    }
  }

  /** Every lease read and write of the contender fails for a while: a network partition. */
  record Outage<E extends LeaseElection>(int slot, int seconds) implements Op<E> {
    @Override
    public void apply(LeaseWorld<E> w) {
      w.outage(slot, seconds);
    }

    @Override
    public String toString() {
      return "lease unreachable for " + name(slot) + " for " + seconds + "s";
    }
  }

  /**
   * A new process in the slot after a graceful stop (drain, release) or a kill -9 (no release),
   * under the same identity (a container restart keeps $HOSTNAME) or a new one.
   */
  record Restart<E extends LeaseElection>(int slot, boolean crash, boolean newIdentity)
      implements Op<E> {
    @Override
    public void apply(LeaseWorld<E> w) throws Exception {
      w.restart(slot, crash, newIdentity);
    }

    @Override
    public String toString() {
      return (crash ? "crash(" : "restart(")
          + name(slot)
          + (newIdentity ? ", new identity)" : ", same identity)");
    }
  }

  /** {@code rm} the lease file, {@code kubectl delete lease}. */
  record DeleteLease<E extends LeaseElection>() implements Op<E> {
    @Override
    public void apply(LeaseWorld<E> w) throws Exception {
      w.election().deleteLease();
    }

    @Override
    public boolean tampers() {
      return true;
    }

    @Override
    public String toString() {
      return "delete lease";
    }
  }

  /** A hand edit lowering the lease's epoch. */
  record LowerLeaseEpoch<E extends LeaseElection>(int by) implements Op<E> {
    @Override
    public void apply(LeaseWorld<E> w) throws Exception {
      w.election().lowerLeaseEpoch(by);
    }

    @Override
    public boolean tampers() {
      return true;
    }

    @Override
    public String toString() {
      return "hand-edit lease epoch down by " + by;
    }
  }

  /** One of the backend's own {@link LeaseDamage}s. */
  record Damage<E extends LeaseElection>(LeaseDamage<E> damage, int argument) implements Op<E> {
    @Override
    public void apply(LeaseWorld<E> w) throws Exception {
      damage.action().apply(w.election(), argument);
    }

    @Override
    public boolean tampers() {
      return true;
    }

    @Override
    public String toString() {
      return damage.describe(argument);
    }
  }

  /**
   * Scenarios of up to {@code maxSteps} steps among 2 or 3 contenders; with {@code tampering}, the
   * lease is also deleted, hand-edited and damaged in the backend's own ways.
   */
  static <E extends LeaseElection> Gen<Scenario<E>> scenarios(
      boolean tampering, int maxSteps, List<LeaseDamage<E>> damages) {
    return Generate.range(2, 3)
        .flatMap(
            n ->
                Generate.longRange(0, 9)
                    .zip(
                        Generate.range(-1, 9),
                        lists().of(steps(n, tampering, damages)).ofSizeBetween(1, maxSteps),
                        (epoch, lease, steps) -> new Scenario<>(n, epoch, lease, steps)));
  }

  private static <E extends LeaseElection> Gen<Step<E>> steps(
      int n, boolean tampering, List<LeaseDamage<E>> damages) {
    Gen<Integer> slots = Generate.range(0, n - 1);
    Gen<Boolean> coin = Generate.booleans();
    List<Pair<Integer, Gen<Op<E>>>> ops = new ArrayList<>();
    ops.add(Pair.of(3, Generate.<Op<E>>constant(new Wait<>())));
    ops.add(Pair.of(4, slots.<Op<E>>map(Commit::new)));
    ops.add(Pair.of(2, slots.<Integer, Op<E>>zip(Generate.range(5, 70), Pause::new)));
    ops.add(Pair.of(1, slots.<Integer, Op<E>>zip(Generate.range(5, 70), Outage::new)));
    ops.add(Pair.of(2, slots.<Boolean, Boolean, Op<E>>zip(coin, coin, Restart::new)));
    if (tampering) {
      ops.add(Pair.of(1, Generate.<Op<E>>constant(new DeleteLease<>())));
      ops.add(Pair.of(1, Generate.range(1, 5).<Op<E>>map(LowerLeaseEpoch::new)));
      for (LeaseDamage<E> d : damages) {
        ops.add(Pair.of(1, Generate.range(0, d.maxArgument()).<Op<E>>map(a -> new Damage<>(d, a))));
      }
    }
    return Generate.frequency(ops).zip(Generate.range(0, 15), Step::new);
  }
}
