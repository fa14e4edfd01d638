package io.sf2loki.pipeline;

import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Collects a lane's entries into batches: a batch is due at {@code maxEntries} entries
 * (checkpoint-only ones count), at {@code maxBytes} of Σ(line bytes + 64) over real entries, or
 * {@code flushInterval} after its first entry — whichever comes first. On an adaptive lane the
 * caller also takes a partial batch early, when the lane is idle ({@link LaneBatching}); the
 * interval then only bounds the wait. Pure state, driven by the caller's monotonic time; one
 * consumer thread.
 */
final class Batcher {

  /**
   * Per-entry bytes counted toward {@code max_bytes} beyond the line (loki-push.md §8: wire size).
   */
  static final int WIRE_OVERHEAD = 64;

  private final int maxEntries;
  private final long maxBytes;
  private final long intervalNanos;
  private List<LogEntry> entries = new ArrayList<>();
  private long bytes;
  private long firstAt;

  Batcher(int maxEntries, long maxBytes, Duration flushInterval) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.intervalNanos = flushInterval.toNanos();
  }

  /** Adds an entry; returns the batch when this entry filled it. */
  Optional<Batch> add(LogEntry e, long nowNanos) {
    if (entries.isEmpty()) {
      firstAt = nowNanos;
    }
    entries.add(e);
    if (!e.isCheckpointOnly()) {
      bytes += e.lineUtf8Size() + WIRE_OVERHEAD;
    }
    return entries.size() >= maxEntries || bytes >= maxBytes ? drain() : Optional.empty();
  }

  /** The batch when its flush interval has elapsed. */
  Optional<Batch> pollDue(long nowNanos) {
    return !entries.isEmpty() && nowNanos - firstAt >= intervalNanos ? drain() : Optional.empty();
  }

  /** Nanoseconds until the current batch is due; {@link Long#MAX_VALUE} when empty. */
  long nanosUntilDue(long nowNanos) {
    return entries.isEmpty() ? Long.MAX_VALUE : Math.max(0, firstAt + intervalNanos - nowNanos);
  }

  /** True while no entry is collected. */
  boolean isEmpty() {
    return entries.isEmpty();
  }

  /** Whatever is collected, as a batch (an idle lane's early flush, the final flush). */
  Optional<Batch> drain() {
    if (entries.isEmpty()) {
      return Optional.empty();
    }
    Batch batch = new Batch(entries);
    entries = new ArrayList<>();
    bytes = 0;
    return Optional.of(batch);
  }
}
