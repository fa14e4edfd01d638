package io.sf2loki.pipeline;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.sf2loki.model.LabelSetMemo;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import io.sf2loki.pipeline.egress.EgressMetrics;
import io.sf2loki.spi.Source;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The pipeline's instruments (operations.md §7). Create one per {@link MeterRegistry} and pass it
 * to every run: gauges read the current run's lanes through references this object owns, so a new
 * leadership term does not leave them bound to a finished run.
 */
public final class PipelineMetrics {

  private static final double[] LAG_BUCKETS = {
    1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 86400
  };

  private final MeterRegistry registry;
  private final Map<Source.Lane, AtomicReference<LaneQueue>> lanes =
      new EnumMap<>(Source.Lane.class);
  private final AtomicLong lastPushSuccess = new AtomicLong();
  private final Map<Source.Lane, AtomicReference<Instant>> failingSince =
      new EnumMap<>(Source.Lane.class);
  private final Map<Source.Lane, AtomicReference<LaneProgress>> progress =
      new EnumMap<>(Source.Lane.class);
  private final Counter pushSuccess;
  private final Counter pushRetried;
  private final DistributionSummary pushDuration;
  private final Map<String, Counter> commits = new ConcurrentHashMap<>();
  private final Map<List<String>, Ingest> ingest = new ConcurrentHashMap<>();
  // The same meters by label set: label sets are shared per stream with a memoised hash, so this
  // lookup replaces building a tag key per entry. Bounded; past it the tag key is built each time.
  private final LabelSetMemo<Ingest> ingestByLabels = new LabelSetMemo<>();
  private final EgressMetrics egress;

  private record Ingest(Counter count, DistributionSummary lag) {}

  /** Registers the pipeline's meters on {@code registry}. */
  public PipelineMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.egress = new EgressMetrics(registry);
    for (Source.Lane lane : Source.Lane.values()) {
      failingSince.put(lane, new AtomicReference<>());
      AtomicReference<LaneQueue> ref = new AtomicReference<>();
      lanes.put(lane, ref);
      Tags tags = Tags.of("lane", lane.name().toLowerCase(java.util.Locale.ROOT));
      Gauge.builder("sf2loki_lane_queue_entries", ref, r -> size(r.get()))
          .description("Entries waiting in the lane queue")
          .tags(tags)
          .register(registry);
      Gauge.builder("sf2loki_lane_queue_bytes", ref, r -> r.get() == null ? 0 : r.get().bytes())
          .description("Bytes charged against the lane's byte budget")
          .tags(tags)
          .register(registry);
      AtomicReference<LaneProgress> moving = new AtomicReference<>();
      progress.put(lane, moving);
      Gauge.builder("sf2loki_lane_stalled_seconds", moving, PipelineMetrics::stalledSeconds)
          .description(
              "How long the lane has held queued entries without taking one, ending a push"
                  + " attempt or committing; 0 while it moves or is empty")
          .tags(tags)
          .register(registry);
    }
    Gauge.builder("sf2loki_queue_depth", lanes, PipelineMetrics::depth)
        .description("Sum of the lane queue sizes")
        .register(registry);
    Gauge.builder("sf2loki_last_push_success_timestamp_seconds", lastPushSuccess, AtomicLong::get)
        .description("Unix seconds of the last successful flush")
        .register(registry);
    pushSuccess = Counter.builder("sf2loki_loki_push").tag("outcome", "success").register(registry);
    pushRetried = Counter.builder("sf2loki_loki_push").tag("outcome", "retried").register(registry);
    pushDuration =
        DistributionSummary.builder("sf2loki_loki_push_duration_seconds")
            .description("Successful pushes, including internal retries")
            .serviceLevelObjectives(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
            .register(registry);
  }

  /** The egress budget's and caps' instruments, shared by every run's governor. */
  public EgressMetrics egress() {
    return egress;
  }

  private static double size(LaneQueue q) {
    return q == null ? 0 : q.size();
  }

  private static double stalledSeconds(AtomicReference<LaneProgress> moving) {
    LaneProgress p = moving.get();
    return p == null ? 0 : p.stall().map(s -> s.duration().toNanos() / 1e9).orElse(0.0);
  }

  private static double depth(Map<Source.Lane, AtomicReference<LaneQueue>> lanes) {
    return lanes.values().stream().mapToDouble(r -> size(r.get())).sum();
  }

  void attach(Source.Lane lane, LaneQueue queue) {
    lanes.get(lane).set(queue);
    // A new run starts healthy: a failure left over from an earlier term (a lane abandoned while
    // retrying) must not make this one look degraded from the start.
    failingSince.get(lane).set(null);
  }

  void detach(Source.Lane lane, LaneQueue queue) {
    lanes.get(lane).compareAndSet(queue, null);
  }

  /** {@code lane}'s progress is the current run's, for stalls. */
  void watch(Source.Lane lane, LaneProgress moving) {
    progress.get(lane).set(moving);
  }

  void unwatch(Source.Lane lane, LaneProgress moving) {
    progress.get(lane).compareAndSet(moving, null);
  }

  /**
   * The current run's longest-stalled lane: one that holds queued entries but has not taken one,
   * ended a push attempt or committed since; empty while every lane moves or is empty. Feeds the
   * readiness probe ({@code service.unready_after_stall}).
   */
  public Optional<LaneStall> longestStall() {
    return progress.values().stream()
        .map(AtomicReference::get)
        .filter(java.util.Objects::nonNull)
        .flatMap(p -> p.stall().stream())
        .max(java.util.Comparator.comparing(LaneStall::duration));
  }

  void ingested(LogEntry e, long nowNanos) {
    Ingest m = ingestByLabels.get(e.labels(), this::ingestFor);
    m.count().increment();
    m.lag().record(Math.max(0, nowNanos - e.timestampNanos()) / 1e9);
  }

  private Ingest ingestFor(StringMap labels) {
    String source = labels.getOrDefault("source", "unknown");
    String type = labels.getOrDefault("event_type", "unknown");
    return ingest.computeIfAbsent(List.of(source, type), this::newIngest);
  }

  private Ingest newIngest(List<String> tags) {
    Tags t = Tags.of("source", tags.get(0), "event_type", tags.get(1));
    return new Ingest(
        Counter.builder("sf2loki_events_ingested").tags(t).register(registry),
        DistributionSummary.builder("sf2loki_ingest_lag_seconds")
            .tags(t)
            .serviceLevelObjectives(LAG_BUCKETS)
            .register(registry));
  }

  /**
   * Since when Loki pushes have been failing without interruption, measured from the earliest
   * failing lane; empty while every lane's last push succeeded (or was deliberately dropped). Feeds
   * the readiness probe ({@code service.unready_after_sink_failing}).
   */
  public Optional<Instant> sinkFailingSince() {
    return failingSince.values().stream()
        .map(AtomicReference::get)
        .filter(java.util.Objects::nonNull)
        .min(Instant::compareTo);
  }

  void laneHealthy(Source.Lane lane) {
    failingSince.get(lane).set(null);
  }

  void pushSucceeded(Duration took, long nowEpochSeconds) {
    pushSuccess.increment();
    pushDuration.record(took.toNanos() / 1e9);
    lastPushSuccess.set(nowEpochSeconds);
  }

  void flushedWithoutPush(long nowEpochSeconds) {
    lastPushSuccess.set(nowEpochSeconds);
  }

  void pushRetried(Source.Lane lane, Instant now) {
    pushRetried.increment();
    failingSince.get(lane).compareAndSet(null, now);
  }

  void dropped(List<LogEntry> entries, String reason) {
    for (LogEntry e : entries) {
      dropped(registry, e, reason);
    }
  }

  /** Counter of entries deliberately dropped, by any sink or by the pipeline. */
  public static final String ENTRIES_DROPPED = "sf2loki_loki_entries_dropped";

  /**
   * Counts one deliberately dropped entry (rejected for good, or dropped by a policy); the one
   * definition sinks share, so every drop is in one family.
   */
  public static void dropped(MeterRegistry registry, LogEntry e, String reason) {
    Counter.builder(ENTRIES_DROPPED)
        .description("Entries deliberately dropped (rejected by Loki, or by a policy)")
        .tag("reason", reason)
        .tag("source", e.labels().getOrDefault("source", "unknown"))
        .tag("event_type", e.labels().getOrDefault("event_type", "unknown"))
        .register(registry)
        .increment();
  }

  void commit(String outcome) {
    commits
        .computeIfAbsent(
            outcome,
            o ->
                Counter.builder("sf2loki_checkpoint_commits")
                    .description("Checkpoint store writes by outcome")
                    .tag("outcome", o)
                    .register(registry))
        .increment();
  }
}
