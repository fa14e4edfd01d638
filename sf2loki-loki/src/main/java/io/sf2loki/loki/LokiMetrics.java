package io.sf2loki.loki;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.PipelineMetrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sink's instruments (operations.md §7): wire bytes of accepted pushes, deliberate drops by
 * reason/source/event_type, truncated lines by source, and labels demoted to structured metadata.
 */
public final class LokiMetrics {

  /** Counter of entries deliberately dropped (one family for every sink and the pipeline). */
  public static final String ENTRIES_DROPPED = PipelineMetrics.ENTRIES_DROPPED;

  /** Gauge, per tenant: 1 while Loki answers its pushes as blocked. */
  public static final String INGESTION_BLOCKED = "sf2loki_loki_ingestion_blocked";

  private final MeterRegistry registry;
  private final Map<String, AtomicInteger> blockedTenants = new ConcurrentHashMap<>();
  private final Counter bytesPushed;
  private final Counter deadLetterFailures;

  /** Registers the sink's meters on {@code registry}. */
  public LokiMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.bytesPushed =
        Counter.builder("sf2loki_loki_bytes_pushed")
            .description("Wire (compressed) bytes of pushes Loki accepted")
            .register(registry);
    this.deadLetterFailures =
        Counter.builder("sf2loki_dead_letter_write_failures")
            .description("Dropped entries that could not be appended to sink.loki.dead_letter_file")
            .register(registry);
  }

  void bytesPushed(long bytes) {
    bytesPushed.increment(bytes);
  }

  void dropped(LogEntry e, String reason) {
    PipelineMetrics.dropped(registry, e, reason);
  }

  void truncated(LogEntry e) {
    Counter.builder("sf2loki_lines_truncated")
        .description("Lines cut to sink.loki.max_line_bytes")
        .tag("source", e.labels().getOrDefault("source", "unknown"))
        .register(registry)
        .increment();
  }

  /** Counts one line whose structured metadata was over Loki's limits, by the limit it hit. */
  void metadataTrimmed(LogEntry e, String reason) {
    Counter.builder("sf2loki_structured_metadata_trimmed")
        .description(
            "Lines whose structured metadata exceeded Loki's 128 pairs or 64 KB; the pairs over"
                + " the limit were moved into the line")
        .tag("reason", reason)
        .tag("source", e.labels().getOrDefault("source", "unknown"))
        .register(registry)
        .increment();
  }

  /** Counts one dropped entry that could not be written to the dead-letter file. */
  void deadLetterWriteFailed() {
    deadLetterFailures.increment();
  }

  void demoted(String label) {
    Counter.builder("sf2loki_labels_demoted")
        .description("Labels outside the allowlist moved to structured metadata at the sink")
        .tag("label", label)
        .register(registry)
        .increment();
  }

  /**
   * Counts one entry handled by a time-window policy (routed, re-timestamped, held or dropped),
   * once it is delivered or dropped.
   */
  void outOfWindow(LogEntry original, WindowPlan.Reason reason, WindowPlan.Action action) {
    outOfWindow(registry, original, reason, action);
  }

  /** {@link #outOfWindow(LogEntry, WindowPlan.Reason, WindowPlan.Action)} on {@code registry}. */
  static void outOfWindow(
      MeterRegistry registry,
      LogEntry original,
      WindowPlan.Reason reason,
      WindowPlan.Action action) {
    Counter.builder("sf2loki_loki_out_of_window_entries")
        .description(
            "Entries outside Loki's time windows (too far behind their stream, too far in the"
                + " future, too old) by what the configured policy did with them")
        .tag("reason", reason.tag)
        .tag("action", action.tag)
        .tag("source", original.labels().getOrDefault("source", "unknown"))
        .register(registry)
        .increment();
  }

  /** Counts one 400 that named a time rule; its entries were placed again, not dropped. */
  void windowRejection(WindowPlan.Reason reason) {
    windowRejection(registry, reason);
  }

  /** {@link #windowRejection(WindowPlan.Reason)} on {@code registry}. */
  static void windowRejection(MeterRegistry registry, WindowPlan.Reason reason) {
    Counter.builder("sf2loki_loki_window_rejections")
        .description(
            "Pushes Loki answered 400 for a time rule (its entries are placed again by the policy)")
        .tag("reason", reason.tag)
        .register(registry)
        .increment();
  }

  /**
   * Counts one answer Loki gave to one HTTP attempt, by status code; every lane retry is an attempt
   * too, so a Loki that throttles for minutes shows here.
   */
  void response(int status) {
    Counter.builder("sf2loki_loki_responses")
        .description("Answers of Loki to push attempts (each retry included), by HTTP status")
        .tag("status", Integer.toString(status))
        .register(registry)
        .increment();
  }

  /** Sets the tenant's blocked gauge: 1 while Loki refuses its ingestion as blocked (260). */
  void ingestionBlocked(String tenant, boolean blocked) {
    blockedTenants
        .computeIfAbsent(
            tenant,
            t -> {
              AtomicInteger v = new AtomicInteger();
              Gauge.builder(INGESTION_BLOCKED, v, AtomicInteger::get)
                  .description(
                      "1 while Loki answers pushes for the tenant as blocked by an operator"
                          + " (block_ingestion_until; 260, nothing stored)")
                  .tag("tenant", t)
                  .register(registry);
              return v;
            })
        .set(blocked ? 1 : 0);
  }

  /** Counts one push attempt that got no answer, by the kind of failure. */
  void transportError(String reason) {
    Counter.builder("sf2loki_loki_transport_errors")
        .description("Push attempts that got no answer from Loki, by reason")
        .tag("reason", reason)
        .register(registry)
        .increment();
  }
}
