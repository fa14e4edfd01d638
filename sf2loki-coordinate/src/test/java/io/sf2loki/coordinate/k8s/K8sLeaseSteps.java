package io.sf2loki.coordinate.k8s;

import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The operations of the k8s_lease property tests and their generators. Every operation prints as a
 * short line ({@code pause(b, 45s)}) so that a shrunk counterexample reads as a script.
 */
final class K8sLeaseSteps {

  private K8sLeaseSteps() {}

  /** One operation on the world. */
  interface Op {
    void apply(K8sLeaseWorld w) throws Exception;

    /** Whether the operation edits the Lease behind the contenders' backs (kubectl). */
    default boolean tampers() {
      return false;
    }
  }

  /** An operation followed by {@code afterSeconds} of simulated time. */
  record Step(Op op, int afterSeconds) {
    @Override
    public String toString() {
      return op + ", then " + afterSeconds + "s";
    }
  }

  /**
   * A whole example; {@code initialLease} is the leaseTransitions of a Lease an earlier, gone pod
   * left behind, or -1 for none.
   */
  record Scenario(int contenders, long initialStoreEpoch, int initialLease, List<Step> steps) {
    @Override
    public String toString() {
      return contenders
          + " contenders, store at epoch "
          + initialStoreEpoch
          + (initialLease < 0 ? ", no Lease" : ", Lease left at leaseTransitions " + initialLease)
          + ":\n  "
          + steps.stream().map(Step::toString).collect(Collectors.joining("\n  "));
    }
  }

  static String name(int i) {
    return String.valueOf((char) ('a' + i));
  }

  record Wait() implements Op {
    @Override
    public void apply(K8sLeaseWorld w) {}

    @Override
    public String toString() {
      return "wait";
    }
  }

  record Commit(int slot) implements Op {
    @Override
    public void apply(K8sLeaseWorld w) {
      w.commit(slot);
    }

    @Override
    public String toString() {
      return "commit(" + name(slot) + ")";
    }
  }

  /** The contender's next Lease write (create, takeover or renewal) stalls first: a GC pause. */
  record Pause(int slot, int seconds) implements Op {
    @Override
    public void apply(K8sLeaseWorld w) {
      w.pause(slot, seconds);
    }

    @Override
    public String toString() {
      return "pause(" + name(slot) + ", " + seconds + "s)";
    }
  }

  /** Every request of the contender fails at the transport for a while: a network partition. */
  record Outage(int slot, int seconds) implements Op {
    @Override
    public void apply(K8sLeaseWorld w) {
      w.outage(slot, seconds);
    }

    @Override
    public String toString() {
      return "api unreachable for " + name(slot) + " for " + seconds + "s";
    }
  }

  /**
   * A new process in the slot after a graceful stop (drain, release) or a kill -9 (no release); in
   * the same pod (a container restart keeps $HOSTNAME, so the identity) or in a new pod.
   */
  record Restart(int slot, boolean crash, boolean newPod) implements Op {
    @Override
    public void apply(K8sLeaseWorld w) throws Exception {
      w.restart(slot, crash, newPod);
    }

    @Override
    public String toString() {
      return (crash ? "crash(" : "restart(") + name(slot) + (newPod ? ", new pod)" : ", same pod)");
    }
  }

  /** kubectl delete lease. */
  record DeleteLease() implements Op {
    @Override
    public void apply(K8sLeaseWorld w) throws Exception {
      w.deleteLease();
    }

    @Override
    public boolean tampers() {
      return true;
    }

    @Override
    public String toString() {
      return "kubectl delete lease";
    }
  }

  /** kubectl edit lowering spec.leaseTransitions. */
  record LowerTransitions(int by) implements Op {
    @Override
    public void apply(K8sLeaseWorld w) throws Exception {
      w.editLease(s -> s.leaseTransitions(Math.max(0, orZero(s.getLeaseTransitions()) - by)));
    }

    @Override
    public boolean tampers() {
      return true;
    }

    @Override
    public String toString() {
      return "kubectl edit: leaseTransitions down by " + by;
    }
  }

  /** kubectl edit clearing spec.holderIdentity. */
  record ClearHolder() implements Op {
    @Override
    public void apply(K8sLeaseWorld w) throws Exception {
      w.editLease(s -> s.holderIdentity(null));
    }

    @Override
    public boolean tampers() {
      return true;
    }

    @Override
    public String toString() {
      return "kubectl edit: holderIdentity cleared";
    }
  }

  /** kubectl edit removing every spec field (the Kubernetes form of a corrupted lease). */
  record StripSpec() implements Op {
    @Override
    public void apply(K8sLeaseWorld w) throws Exception {
      w.editLease(
          s ->
              s.holderIdentity(null)
                  .renewTime(null)
                  .acquireTime(null)
                  .leaseDurationSeconds(null)
                  .leaseTransitions(null));
    }

    @Override
    public boolean tampers() {
      return true;
    }

    @Override
    public String toString() {
      return "kubectl edit: spec emptied";
    }
  }

  private static int orZero(Integer i) {
    return i == null ? 0 : i;
  }

  /**
   * Scenarios of up to {@code maxSteps} steps; with {@code tampering}, the Lease is also edited.
   */
  static Gen<Scenario> scenarios(boolean tampering, int maxSteps) {
    return Generate.range(2, 3)
        .flatMap(
            n ->
                Generate.longRange(0, 9)
                    .zip(
                        Generate.range(-1, 9),
                        lists().of(steps(n, tampering)).ofSizeBetween(1, maxSteps),
                        (epoch, lease, steps) -> new Scenario(n, epoch, lease, steps)));
  }

  private static Gen<Step> steps(int n, boolean tampering) {
    Gen<Integer> slots = Generate.range(0, n - 1);
    Gen<Boolean> coin = Generate.booleans();
    List<Pair<Integer, Gen<Op>>> ops = new ArrayList<>();
    ops.add(Pair.of(3, Generate.<Op>constant(new Wait())));
    ops.add(Pair.of(4, slots.<Op>map(Commit::new)));
    ops.add(Pair.of(2, slots.<Integer, Op>zip(Generate.range(5, 70), Pause::new)));
    ops.add(Pair.of(1, slots.<Integer, Op>zip(Generate.range(5, 70), Outage::new)));
    ops.add(Pair.of(2, slots.<Boolean, Boolean, Op>zip(coin, coin, Restart::new)));
    if (tampering) {
      ops.add(Pair.of(1, Generate.<Op>constant(new DeleteLease())));
      ops.add(Pair.of(1, Generate.range(1, 5).<Op>map(LowerTransitions::new)));
      ops.add(Pair.of(1, Generate.<Op>constant(new ClearHolder())));
      ops.add(Pair.of(1, Generate.<Op>constant(new StripSpec())));
    }
    return Generate.frequency(ops).zip(Generate.range(0, 15), Step::new);
  }
}
