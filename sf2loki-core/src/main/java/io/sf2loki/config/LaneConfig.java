package io.sf2loki.config;

import io.sf2loki.spi.ConfigSection;
import java.time.Duration;

/**
 * How a pipeline lane batches and retries, whatever the sink: bound from the keys users know,
 * {@code sink.loki.batch.*} and {@code sink.loki.retry.lane_*} / {@code max_retry_after} (as in the
 * Python sf2loki), so one set of values serves both lanes unless a lane is given its own.
 *
 * @param maxEntries flush a batch at this many entries (checkpoint-only entries count)
 * @param maxBytes flush a batch when its line bytes reach this
 * @param flushInterval flush this long after the first entry entered an empty batch
 * @param queueMaxEntries entry bound of the lane's queue
 * @param queueMaxBytes byte bound of the lane's queue
 * @param retryMinBackoff first wait after a retryable push failure
 * @param retryMaxBackoff upper bound of that wait, which doubles (jittered)
 * @param maxRetryAfter cap on a server's Retry-After
 * @param streamingFlushInterval the streaming lane's own flush interval: Pub/Sub events are wanted
 *     in Loki within a second, which a batch held for the bulk lane's interval would miss
 * @param streamingLinger the least time between the streaming lane's handing off a batch and a
 *     partial batch after it (zero: whenever idle), so that a steady stream forms fewer, larger
 *     pushes
 */
public record LaneConfig(
    int maxEntries,
    long maxBytes,
    Duration flushInterval,
    int queueMaxEntries,
    long queueMaxBytes,
    Duration retryMinBackoff,
    Duration retryMaxBackoff,
    Duration maxRetryAfter,
    Duration streamingFlushInterval,
    Duration streamingLinger) {

  /** The documented defaults ({@code reference.conf}). */
  public static LaneConfig defaults() {
    return new LaneConfig(
        1000,
        1_048_576,
        Duration.ofSeconds(1),
        10_000,
        268_435_456,
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        Duration.ofSeconds(60),
        Duration.ofMillis(250),
        Duration.ofMillis(1));
  }

  /** The streaming lane's bounds: these, flushed after {@link #streamingFlushInterval()}. */
  public LaneConfig forStreaming() {
    return new LaneConfig(
        maxEntries,
        maxBytes,
        streamingFlushInterval,
        queueMaxEntries,
        queueMaxBytes,
        retryMinBackoff,
        retryMaxBackoff,
        maxRetryAfter,
        streamingFlushInterval,
        streamingLinger);
  }

  /** A copy with other batch and queue bounds. */
  public LaneConfig withBatch(
      int maxEntries,
      long maxBytes,
      Duration flushInterval,
      int queueMaxEntries,
      long queueMaxBytes) {
    return new LaneConfig(
        maxEntries,
        maxBytes,
        flushInterval,
        queueMaxEntries,
        queueMaxBytes,
        retryMinBackoff,
        retryMaxBackoff,
        maxRetryAfter,
        streamingFlushInterval,
        streamingLinger);
  }

  /**
   * Binds {@code sink.loki.batch} and the lane keys of {@code sink.loki.retry}.
   *
   * @param sinkLoki the {@code sink.loki} section
   */
  public static LaneConfig bind(ConfigSection sinkLoki) {
    ConfigSection batch = sinkLoki.section("batch");
    ConfigSection retry = sinkLoki.section("retry");
    LaneConfig c =
        new LaneConfig(
            batch.intInRange("max_entries", 1, 1_000_000),
            batch.bytes("max_bytes", 1024),
            batch.positiveDuration("flush_interval"),
            batch.intInRange("queue_maxsize", 100, 10_000_000),
            batch.bytes("queue_max_bytes", 0),
            retry.positiveDuration("lane_min_backoff"),
            retry.positiveDuration("lane_max_backoff"),
            retry.positiveDuration("max_retry_after"),
            batch.positiveDuration("streaming_flush_interval"),
            batch.duration("streaming_linger"));
    if (c.streamingLinger.isNegative()) {
      batch.problem("streaming_linger", batch.path("streaming_linger") + " must not be negative");
    }
    if (c.retryMaxBackoff.compareTo(c.retryMinBackoff) < 0) {
      retry.problem(
          "lane_max_backoff",
          retry.path("lane_max_backoff")
              + " must not be less than "
              + retry.path("lane_min_backoff"));
    }
    return c;
  }
}
