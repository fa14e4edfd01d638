package io.sf2loki.source.apexlog;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** The {@code sf2loki_apexlog_*} counters of the operations reference §7. */
final class ApexLogMetrics {

  private final MeterRegistry registry;
  private final Counter ingested;
  private final Counter bytes;

  ApexLogMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.ingested = Counter.builder("sf2loki_apexlog_logs_ingested").register(registry);
    this.bytes = Counter.builder("sf2loki_apexlog_download_bytes").register(registry);
  }

  void ingested() {
    ingested.increment();
  }

  void downloaded(long n) {
    bytes.increment(n);
  }

  void skipped(String reason) {
    Counter.builder("sf2loki_apexlog_bodies_skipped")
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  void downloadError(String reason) {
    Counter.builder("sf2loki_apexlog_download_errors")
        .tag("reason", reason)
        .register(registry)
        .increment();
  }
}
