package io.sf2loki.loki;

import io.sf2loki.model.StringMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this process knows of the newest timestamp Loki holds (or may hold) in each stream: the
 * newest entry it sent there, pushes still in flight included, and, apart, what Loki's "too far
 * behind" rejections revealed. A stream this process has not written to since it started is unknown
 * (loki-push.md §7, Loki's out-of-order window).
 *
 * <p>A stream is <em>confirmed</em> once Loki accepted a push that held that stream alone. Why it
 * matters: Loki's ingester answers a push with the error of the <em>last</em> stream of the request
 * only, so entries of an earlier stream refused as too far behind are lost behind a 2xx. Streams
 * not confirmed are therefore pushed one per request ({@link BatchPush}); a lesson about a stream
 * unconfirms it until Loki accepts it alone again.
 *
 * <p>{@link #version()} changes whenever a rejection raised a value, so a batch planned before the
 * lesson is planned again. Bounded: past {@link #MAX_STREAMS} label sets everything is forgotten,
 * which is safe (a forgotten stream is unknown and unconfirmed again) and needs a label cardinality
 * no sane deployment has. Thread-safe.
 */
final class StreamNewest {

  /** Sentinel of an unknown stream. */
  static final long UNKNOWN = Long.MIN_VALUE;

  static final int MAX_STREAMS = 65_536;

  private static final Logger LOG = LoggerFactory.getLogger(StreamNewest.class);

  private final Map<StringMap, Long> sent = new ConcurrentHashMap<>();
  private final Map<StringMap, Long> learned = new ConcurrentHashMap<>();
  private final Set<StringMap> confirmed = ConcurrentHashMap.newKeySet();
  private final AtomicLong version = new AtomicLong();

  /** The newest known timestamp of {@code labels}, sent or learned, or {@link #UNKNOWN}. */
  long get(StringMap labels) {
    return Math.max(value(sent, labels), value(learned, labels));
  }

  /** The newest timestamp Loki's rejections revealed for {@code labels}, or {@link #UNKNOWN}. */
  long learned(StringMap labels) {
    return value(learned, labels);
  }

  /** Records that an entry at {@code timestampNanos} is being pushed into {@code labels}. */
  void sent(StringMap labels, long timestampNanos) {
    raise(sent, labels, timestampNanos);
  }

  /**
   * Records what a rejection revealed: Loki's newest in {@code labels} is at least {@code
   * atLeastNanos}. The stream is no longer confirmed.
   *
   * @return whether that raised what was known (and so changed {@link #version()})
   */
  boolean learned(StringMap labels, long atLeastNanos) {
    confirmed.remove(labels);
    if (raise(learned, labels, atLeastNanos)) {
      version.incrementAndGet();
      return true;
    }
    return false;
  }

  /** Loki accepted a push that held {@code labels} alone. */
  void confirm(StringMap labels) {
    if (confirmed.size() < MAX_STREAMS) {
      confirmed.add(labels);
    }
  }

  /** Whether {@code labels} may share a push with other streams. */
  boolean isConfirmed(StringMap labels) {
    return confirmed.contains(labels);
  }

  /** Changes whenever a lesson raised a value. */
  long version() {
    return version.get();
  }

  private static long value(Map<StringMap, Long> map, StringMap labels) {
    Long n = map.get(labels);
    return n == null ? UNKNOWN : n;
  }

  private boolean raise(Map<StringMap, Long> map, StringMap labels, long ts) {
    Long before = map.get(labels);
    if (before != null && before >= ts) {
      return false;
    }
    if (before == null && map.size() >= MAX_STREAMS) {
      LOG.warn(
          "more than {} Loki streams seen; forgetting their newest timestamps (Loki's next"
              + " rejection in each teaches them again)",
          MAX_STREAMS);
      sent.clear();
      learned.clear();
      confirmed.clear();
    }
    Long after = map.merge(labels, ts, Math::max);
    return before == null || after > before;
  }
}
