package io.sf2loki.pipeline;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.pipeline.egress.DailyUsage;
import io.sf2loki.pipeline.egress.EgressGovernor;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreConflictException;
import io.sf2loki.spi.StoreException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Commit-after-push for one run (invariant 1): each delivered batch's last value per key goes to
 * the store in one fenced write. Keys of an abandoned batch are blocked for the rest of the run, so
 * no later batch or checkpoint-only flush can commit past entries that never reached Loki. After
 * {@link #close()} no further write starts. Serialised: one store write at a time, and the commits
 * that arrive while a write is in flight (the other lane's) go together in the next one, so a lane
 * waits for at most one write of another lane's and the store sees fewer writes (group commit). A
 * commit whose updates went in a write that failed throws that write's exception.
 *
 * <p>{@link #position} never waits for a write: sources read it while they fetch (a Pub/Sub topic
 * on every message), and a write in flight for either lane (a store round trip, an fsync) would
 * otherwise stall them for as long.
 */
final class Committer {

  private final CheckpointStore store;
  private final Fence fence;
  private final PipelineMetrics metrics;
  private final Map<String, String> positions; // concurrent: read without the write lock
  private final EgressGovernor egress;
  private final Set<String> blocked = new HashSet<>();
  private final ReentrantLock writing = new ReentrantLock();
  // Guarded by this: updates waiting for the next write, and which commit() calls were written.
  private final Map<String, String> pending = new LinkedHashMap<>();
  private long requested;
  private long written;
  private long failedUpTo;
  private RuntimeException failure;
  private volatile boolean closed;

  /**
   * @param positions the document as loaded at run start
   * @param egress whose day's use rides each commit after it changed ({@link DailyUsage#KEY})
   */
  Committer(
      CheckpointStore store,
      Fence fence,
      PipelineMetrics metrics,
      Map<String, String> positions,
      EgressGovernor egress) {
    this.store = store;
    this.egress = egress;
    this.fence = fence;
    this.metrics = metrics;
    this.positions = new ConcurrentHashMap<>(positions);
    this.positions.keySet().removeIf(CheckpointToken::isReserved);
  }

  /**
   * Commits {@code updates} minus blocked keys.
   *
   * @return false when the committer is closed and nothing was written
   * @throws FencedException a newer leader owns the document
   * @throws StoreConflictException another writer won a CAS race
   * @throws StoreException any other store failure
   */
  boolean commit(Map<String, String> updates) {
    long mine;
    synchronized (this) {
      if (closed) {
        return false;
      }
      pending.putAll(updates); // keys are a lane's own, and a lane commits in order
      mine = ++requested;
    }
    writing.lock();
    try {
      Map<String, String> allowed;
      long upTo;
      synchronized (this) {
        if (written >= mine) {
          return true; // another lane's write carried these updates
        }
        if (failedUpTo >= mine) {
          throw failure; // ... and failed
        }
        if (closed) {
          return false;
        }
        allowed = new LinkedHashMap<>(pending);
        pending.clear();
        upTo = requested;
        allowed.keySet().removeAll(blocked);
      }
      if (!allowed.isEmpty()) {
        write(allowed, upTo);
      }
      synchronized (this) {
        written = upTo;
      }
      return true;
    } finally {
      writing.unlock();
    }
  }

  private void write(Map<String, String> allowed, long upTo) {
    // In the same write as the positions it paid for: a restart or a new leader reads both or
    // neither. Read under the write lock, so writes carry the use in the order it grew.
    Optional<String> used = egress.unpersisted();
    used.ifPresent(u -> allowed.put(DailyUsage.KEY, u));
    try {
      store.commit(allowed, fence);
    } catch (FencedException | StoreConflictException e) {
      metrics.commit("fenced");
      failed(upTo, e);
      throw e;
    } catch (RuntimeException e) {
      metrics.commit("error");
      failed(upTo, e);
      throw e;
    }
    metrics.commit("success");
    used.ifPresent(egress::persisted);
    positions.putAll(allowed);
  }

  private synchronized void failed(long upTo, RuntimeException e) {
    failedUpTo = upTo;
    failure = e;
  }

  /** Commits waiting for the write in flight (tests: shows that they wait). */
  int waitingCommits() {
    return writing.getQueueLength();
  }

  /** Blocks every later commit on {@code keys} in this run (an abandoned batch's keys). */
  synchronized void block(Set<String> keys) {
    blocked.addAll(keys);
  }

  /** The committed position of {@code key}: as loaded, or as this run committed it. */
  Optional<String> position(String key) {
    return Optional.ofNullable(positions.get(key));
  }

  /**
   * Refuses every later commit. Does not wait for a commit in flight: at the end of a drain's grace
   * the teardown interrupts it (a store retry loop or an I/O deadline wait gives up at once), and a
   * write that still lands carries delivered positions only.
   */
  void close() {
    closed = true;
  }
}
