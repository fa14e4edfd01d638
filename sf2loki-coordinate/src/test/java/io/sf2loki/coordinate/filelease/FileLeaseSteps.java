package io.sf2loki.coordinate.filelease;

import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The operations of the file_lease property tests and their generators. Every operation prints as a
 * short line ({@code pause(b, 45s)}) so that a shrunk counterexample reads as a script.
 */
final class FileLeaseSteps {

  private FileLeaseSteps() {}

  /** One operation on the world. */
  interface Op {
    void apply(FileLeaseWorld w) throws Exception;

    /** Whether the operation edits the lease behind the contenders' backs. */
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

  /** A whole example. */
  record Scenario(int contenders, long initialStoreEpoch, List<Step> steps) {
    @Override
    public String toString() {
      return contenders
          + " contenders, store at epoch "
          + initialStoreEpoch
          + ":\n  "
          + steps.stream().map(Step::toString).collect(Collectors.joining("\n  "));
    }
  }

  static String name(int i) {
    return String.valueOf((char) ('a' + i));
  }

  record Wait() implements Op {
    @Override
    public void apply(FileLeaseWorld w) {}

    @Override
    public String toString() {
      return "wait";
    }
  }

  record Commit(int slot) implements Op {
    @Override
    public void apply(FileLeaseWorld w) {
      w.commit(slot);
    }

    @Override
    public String toString() {
      return "commit(" + name(slot) + ")";
    }
  }

  /** The contender's next lease write (claim or renewal) stalls first: a GC pause, a hung mount. */
  record Pause(int slot, int seconds) implements Op {
    @Override
    public void apply(FileLeaseWorld w) {
      w.pause(slot, seconds);
    }

    @Override
    public String toString() {
      return "pause(" + name(slot) + ", " + seconds + "s)";
    }
  }

  /** Graceful stop (drain, release) and a new process in the same slot. */
  record Restart(int slot) implements Op {
    @Override
    public void apply(FileLeaseWorld w) throws Exception {
      w.restart(slot, false);
    }

    @Override
    public String toString() {
      return "restart(" + name(slot) + ")";
    }
  }

  /** kill -9 (no release) and a new process in the same slot. */
  record Crash(int slot) implements Op {
    @Override
    public void apply(FileLeaseWorld w) throws Exception {
      w.restart(slot, true);
    }

    @Override
    public String toString() {
      return "crash(" + name(slot) + ")";
    }
  }

  record DeleteLease() implements Op {
    @Override
    public void apply(FileLeaseWorld w) throws Exception {
      w.deleteLease();
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

  record TruncateLease(int keepBytes) implements Op {
    @Override
    public void apply(FileLeaseWorld w) throws Exception {
      w.truncateLease(keepBytes);
    }

    @Override
    public boolean tampers() {
      return true;
    }

    @Override
    public String toString() {
      return "truncate lease to " + keepBytes + " bytes";
    }
  }

  record CorruptLease() implements Op {
    @Override
    public void apply(FileLeaseWorld w) throws Exception {
      w.corruptLease();
    }

    @Override
    public boolean tampers() {
      return true;
    }

    @Override
    public String toString() {
      return "corrupt lease";
    }
  }

  record LowerLeaseEpoch(int by) implements Op {
    @Override
    public void apply(FileLeaseWorld w) throws Exception {
      w.lowerLeaseEpoch(by);
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

  /**
   * Scenarios of up to {@code maxSteps} steps; with {@code tampering}, the lease is also edited.
   */
  static Gen<Scenario> scenarios(boolean tampering, int maxSteps) {
    return Generate.range(2, 3)
        .flatMap(
            n ->
                Generate.longRange(0, 9)
                    .zip(
                        lists().of(steps(n, tampering)).ofSizeBetween(1, maxSteps),
                        (epoch, steps) -> new Scenario(n, epoch, steps)));
  }

  private static Gen<Step> steps(int n, boolean tampering) {
    Gen<Integer> slots = Generate.range(0, n - 1);
    List<Pair<Integer, Gen<Op>>> ops = new ArrayList<>();
    ops.add(Pair.of(3, Generate.<Op>constant(new Wait())));
    ops.add(Pair.of(4, slots.<Op>map(Commit::new)));
    ops.add(Pair.of(2, slots.<Integer, Op>zip(Generate.range(5, 70), Pause::new)));
    ops.add(Pair.of(1, slots.<Op>map(Restart::new)));
    ops.add(Pair.of(1, slots.<Op>map(Crash::new)));
    if (tampering) {
      ops.add(Pair.of(1, Generate.<Op>constant(new DeleteLease())));
      ops.add(Pair.of(1, Generate.range(0, 40).<Op>map(TruncateLease::new)));
      ops.add(Pair.of(1, Generate.<Op>constant(new CorruptLease())));
      ops.add(Pair.of(1, Generate.range(1, 5).<Op>map(LowerLeaseEpoch::new)));
    }
    return Generate.frequency(ops).zip(Generate.range(0, 15), Step::new);
  }
}
