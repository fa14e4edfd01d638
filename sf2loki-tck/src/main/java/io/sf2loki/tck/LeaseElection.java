package io.sf2loki.tck;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.EpochFloor;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The adapter a lease coordinator gives the kit: one lease, the coordinators that contend for it
 * and the faults the kit injects. {@link LeaseCoordinatorContract} and {@link
 * LeaseCoordinatorProperties} drive everything else. One election is made per test or per property
 * example, on the {@link SimulatedTime} it was made with: its coordinators sleep on that timeline.
 *
 * <p>The kit calls these methods from the test thread at instants when every contender is asleep,
 * except the {@link Candidate} faults, which a contender's own thread may observe at any time.
 */
public interface LeaseElection extends AutoCloseable {

  /**
   * A new process contending as {@code identity}: a coordinator that has not run yet, that sleeps
   * on the election's timeline and reads {@code floor} at every acquire.
   */
  Candidate join(String identity, Optional<EpochFloor> floor) throws Exception;

  /**
   * Another process's instance of the checkpoint store the contenders share, for the property world
   * (which claims epochs and commits through it as the engine does). It must be an {@link
   * EpochFloor} and an {@link io.sf2loki.spi.EpochClaim}; without a store of its own, a backend
   * returns siblings of one {@link FakeCheckpointStore}.
   */
  CheckpointStore openStore() throws Exception;

  /**
   * Leaves the lease as a process that is gone would: held by {@code holder} at {@code epoch},
   * renewed just now.
   */
  void leaveLease(String holder, long epoch) throws Exception;

  /** Deletes the lease behind the contenders' backs ({@code rm}, {@code kubectl delete}). */
  void deleteLease() throws Exception;

  /**
   * Hand-edits the lease's epoch down by {@code by}, never below 0; does nothing when the lease is
   * absent or unreadable.
   */
  void lowerLeaseEpoch(int by) throws Exception;

  /** The lease as stored now, for failure messages. */
  String describeLease();

  /** Releases what the election holds (servers, clients). The contenders are stopped by then. */
  @Override
  void close() throws IOException;

  /** One contending process and the faults the kit injects into it. */
  interface Candidate {

    /** The coordinator, run once by the kit. */
    Coordinator coordinator();

    /**
     * The process's next lease write (claim, takeover, renewal) first stalls for {@code pause} of
     * simulated time: a GC pause between reading the lease and writing it, a hung mount.
     */
    void pauseBeforeNextWrite(Duration pause);

    /**
     * Every lease read and write of the process fails for {@code outage} of simulated time from
     * now: a network partition, an unreachable API server.
     */
    void cutOffFor(Duration outage);

    /** From now on the process neither renews nor releases: {@code kill -9}. */
    void kill();
  }
}
