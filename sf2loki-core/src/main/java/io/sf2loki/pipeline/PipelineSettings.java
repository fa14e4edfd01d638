package io.sf2loki.pipeline;

import io.sf2loki.config.EgressConfig;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.spi.Source;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * How a pipeline runs, as one immutable value: the lanes' bounds, the drain and teardown budgets
 * and the labels on every entry. {@link #defaults()} are the documented defaults ({@code
 * reference.conf}, pinned by a test); the {@code with…} methods derive a changed copy.
 *
 * @param lanes batch, queue and retry bounds of every lane without bounds of its own ({@code
 *     sink.loki.batch.*}, {@code sink.loki.retry.lane_*}, {@code max_retry_after})
 * @param laneOverrides lanes with bounds of their own (the streaming lane's flush interval, say)
 * @param shutdownGrace how long a stop may spend draining ({@code service.shutdown_grace})
 * @param joinTimeout how long teardown waits for threads stuck in I/O after an abort
 * @param staticLabels labels stamped over every real entry's own (job, service_name, operator
 *     labels)
 * @param egress the daily byte budget and the lanes' rate caps ({@code sink.loki.egress})
 * @param streamingCommitInterval the least time between the starts of the streaming lane's
 *     checkpoint writes ({@code state.streaming_commit_interval}); zero writes after every
 *     delivered batch, as the bulk lane always does
 */
public record PipelineSettings(
    LaneConfig lanes,
    Map<Source.Lane, LaneConfig> laneOverrides,
    Duration shutdownGrace,
    Duration joinTimeout,
    Map<String, String> staticLabels,
    EgressConfig egress,
    Duration streamingCommitInterval) {

  /** {@code state.streaming_commit_interval}'s default. */
  public static final Duration DEFAULT_STREAMING_COMMIT_INTERVAL = Duration.ofSeconds(1);

  public PipelineSettings {
    Objects.requireNonNull(lanes, "lanes");
    laneOverrides = Map.copyOf(laneOverrides);
    requireNotNegative(shutdownGrace, "shutdownGrace");
    requireNotNegative(joinTimeout, "joinTimeout");
    staticLabels = Map.copyOf(staticLabels);
    Objects.requireNonNull(egress, "egress");
    requireNotNegative(streamingCommitInterval, "streamingCommitInterval");
  }

  /**
   * The documented defaults: {@link LaneConfig#defaults()}, a 25s grace, a 35s join timeout, no
   * egress budget or caps, a 1s commit interval.
   */
  public static PipelineSettings defaults() {
    return new PipelineSettings(
        LaneConfig.defaults(),
        Map.of(),
        Duration.ofSeconds(25),
        Duration.ofSeconds(35),
        Map.of(),
        EgressConfig.none(),
        DEFAULT_STREAMING_COMMIT_INTERVAL);
  }

  /** The bounds {@code lane} runs with: its own, else {@link #lanes}. */
  public LaneConfig lane(Source.Lane lane) {
    return laneOverrides.getOrDefault(lane, lanes);
  }

  /** A copy whose lanes without bounds of their own use {@code bounds}. */
  public PipelineSettings withLanes(LaneConfig bounds) {
    return new PipelineSettings(
        bounds,
        laneOverrides,
        shutdownGrace,
        joinTimeout,
        staticLabels,
        egress,
        streamingCommitInterval);
  }

  /** A copy in which {@code lane} has bounds of its own. */
  public PipelineSettings withLane(Source.Lane lane, LaneConfig bounds) {
    Map<Source.Lane, LaneConfig> overrides = new EnumMap<>(Source.Lane.class);
    overrides.putAll(laneOverrides);
    overrides.put(Objects.requireNonNull(lane, "lane"), Objects.requireNonNull(bounds, "bounds"));
    return new PipelineSettings(
        lanes,
        overrides,
        shutdownGrace,
        joinTimeout,
        staticLabels,
        egress,
        streamingCommitInterval);
  }

  /** A copy with another drain budget. */
  public PipelineSettings withShutdownGrace(Duration grace) {
    return new PipelineSettings(
        lanes, laneOverrides, grace, joinTimeout, staticLabels, egress, streamingCommitInterval);
  }

  /** A copy with another teardown join timeout. */
  public PipelineSettings withJoinTimeout(Duration timeout) {
    return new PipelineSettings(
        lanes,
        laneOverrides,
        shutdownGrace,
        timeout,
        staticLabels,
        egress,
        streamingCommitInterval);
  }

  /** A copy with other static labels. */
  public PipelineSettings withStaticLabels(Map<String, String> labels) {
    return new PipelineSettings(
        lanes, laneOverrides, shutdownGrace, joinTimeout, labels, egress, streamingCommitInterval);
  }

  /** A copy with other egress controls. */
  public PipelineSettings withEgress(EgressConfig controls) {
    return new PipelineSettings(
        lanes,
        laneOverrides,
        shutdownGrace,
        joinTimeout,
        staticLabels,
        controls,
        streamingCommitInterval);
  }

  /** A copy with another commit interval. */
  public PipelineSettings withStreamingCommitInterval(Duration interval) {
    return new PipelineSettings(
        lanes, laneOverrides, shutdownGrace, joinTimeout, staticLabels, egress, interval);
  }

  private static void requireNotNegative(Duration d, String name) {
    if (Objects.requireNonNull(d, name).isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative: " + d);
    }
  }
}
