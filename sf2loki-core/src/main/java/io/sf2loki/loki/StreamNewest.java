package io.sf2loki.loki;

import io.sf2loki.model.StringMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this process knows of the newest timestamp Loki holds (or may hold) in each stream: the
 * newest entry it sent there, including pushes still in flight, raised further by what Loki's "too
 * far behind" rejections reveal. Always a lower bound of Loki's own value as far as this process
 * has written, never a guess: a stream it has not written to since it started is unknown, and
 * Loki's first rejection there teaches it (loki-push.md §7, Loki's out-of-order window).
 *
 * <p>{@link #version()} changes whenever a rejection raised a value, so a batch planned before the
 * lesson is planned again. Bounded: past {@link #MAX_STREAMS} label sets everything is forgotten,
 * which is safe (a forgotten stream is unknown again) and needs a label cardinality no sane
 * deployment has. Thread-safe.
 */
final class StreamNewest {

  /** Sentinel of an unknown stream. */
  static final long UNKNOWN = Long.MIN_VALUE;

  static final int MAX_STREAMS = 65_536;

  private static final Logger LOG = LoggerFactory.getLogger(StreamNewest.class);

  private final ConcurrentHashMap<StringMap, Long> newest = new ConcurrentHashMap<>();
  private final AtomicLong version = new AtomicLong();

  /** The newest known timestamp of {@code labels}, or {@link #UNKNOWN}. */
  long get(StringMap labels) {
    Long n = newest.get(labels);
    return n == null ? UNKNOWN : n;
  }

  /** Records that an entry at {@code timestampNanos} is being pushed into {@code labels}. */
  void sent(StringMap labels, long timestampNanos) {
    raise(labels, timestampNanos);
  }

  /**
   * Records what a rejection revealed: Loki's newest in {@code labels} is at least {@code
   * atLeastNanos}.
   *
   * @return whether that raised what was known (and so changed {@link #version()})
   */
  boolean learned(StringMap labels, long atLeastNanos) {
    if (raise(labels, atLeastNanos)) {
      version.incrementAndGet();
      return true;
    }
    return false;
  }

  /** Changes whenever {@link #learned} raised a value. */
  long version() {
    return version.get();
  }

  private boolean raise(StringMap labels, long ts) {
    Long before = newest.get(labels);
    if (before != null && before >= ts) {
      return false;
    }
    if (before == null && newest.size() >= MAX_STREAMS) {
      LOG.warn(
          "more than {} Loki streams seen; forgetting their newest timestamps (Loki's next"
              + " rejection in each teaches them again)",
          MAX_STREAMS);
      newest.clear();
    }
    long[] raised = {0};
    newest.merge(
        labels,
        ts,
        (old, now) -> {
          if (now > old) {
            raised[0] = 1;
            return now;
          }
          return old;
        });
    return before == null || raised[0] == 1;
  }
}
