package io.sf2loki.otlp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.PipelineMetrics;

/**
 * The OTLP sink's instruments (docs/observability/metrics.md): answers by status, attempts without
 * one by reason, wire bytes of accepted exports, records a partial success reported rejected, and
 * drops (the one {@code sf2loki_loki_entries_dropped} family every sink shares).
 */
final class OtlpMetrics {

  private final MeterRegistry registry;
  private final Counter bytesPushed;
  private final Counter rejected;
  private final Counter deadLetterFailures;

  OtlpMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.bytesPushed =
        Counter.builder("sf2loki_otlp_bytes_pushed")
            .description("Wire (compressed) bytes of exports the OTLP endpoint accepted")
            .register(registry);
    this.rejected =
        Counter.builder("sf2loki_otlp_rejected_records")
            .description("Records OTLP partial successes reported rejected (bisection included)")
            .register(registry);
    this.deadLetterFailures =
        Counter.builder("sf2loki_dead_letter_write_failures")
            .description("Dropped entries that could not be appended to the dead-letter file")
            .register(registry);
  }

  void response(int status) {
    Counter.builder("sf2loki_otlp_responses")
        .description("Answers of the OTLP endpoint to export attempts, by HTTP status")
        .tag("status", Integer.toString(status))
        .register(registry)
        .increment();
  }

  void transportError(String reason) {
    Counter.builder("sf2loki_otlp_transport_errors")
        .description("Export attempts that got no answer from the OTLP endpoint")
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  void bytesPushed(long bytes) {
    bytesPushed.increment(bytes);
  }

  void rejected(long records) {
    rejected.increment(records);
  }

  void dropped(LogEntry e, String reason) {
    PipelineMetrics.dropped(registry, e, reason);
  }

  void deadLetterWriteFailed() {
    deadLetterFailures.increment();
  }
}
