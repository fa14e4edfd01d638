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

/**
 * Commit-after-push for one run (invariant 1): each delivered batch's last value per key goes to
 * the store in one fenced write. Keys of an abandoned batch are blocked for the rest of the run, so
 * no later batch or checkpoint-only flush can commit past entries that never reached Loki. After
 * {@link #close()} no further write starts. Serialised: one store write at a time.
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
  synchronized boolean commit(Map<String, String> updates) {
    if (closed) {
      return false;
    }
    Map<String, String> allowed = new LinkedHashMap<>(updates);
    allowed.keySet().removeAll(blocked);
    if (allowed.isEmpty()) {
      return true;
    }
    // In the same write as the positions it paid for: a restart or a new leader reads both or
    // neither. Read under this lock, so writes carry the use in the order it grew.
    Optional<String> used = egress.unpersisted();
    used.ifPresent(u -> allowed.put(DailyUsage.KEY, u));
    try {
      store.commit(allowed, fence);
    } catch (FencedException | StoreConflictException e) {
      metrics.commit("fenced");
      throw e;
    } catch (RuntimeException e) {
      metrics.commit("error");
      throw e;
    }
    metrics.commit("success");
    used.ifPresent(egress::persisted);
    positions.putAll(allowed);
    return true;
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
