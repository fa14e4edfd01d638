package io.sf2loki.source.eventlogfile;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.files.StrayFiles;
import java.util.concurrent.atomic.AtomicLong;

/** The EventLogFile source's instruments (operations reference §7). */
final class ElfMetrics {

  static final String SOURCE = "eventlogfile";
  private static final String CYCLE_SECONDS = "sf2loki_eventlogfile_cycle_seconds";
  private final MeterRegistry registry;
  private final AtomicLong cycleMillis = new AtomicLong();

  ElfMetrics(MeterRegistry registry) {
    this.registry = registry;
    // one source per leadership run shares the registry: the new run's gauge replaces the old one
    Gauge previous = registry.find(CYCLE_SECONDS).gauge();
    if (previous != null) {
      registry.remove(previous);
    }
    Gauge.builder(CYCLE_SECONDS, cycleMillis, v -> v.get() / 1000.0)
        .strongReference(true)
        .register(registry);
  }

  /** Counts and logs the spool files a crashed process left behind. */
  StrayFiles straySpools() {
    return new StrayFiles(registry, "spool");
  }

  void fileProcessed(String type) {
    counter("sf2loki_eventlogfile_files_processed", "event_type", type).increment();
  }

  void rowsIngested(String type, long rows) {
    counter("sf2loki_eventlogfile_rows_ingested", "event_type", type).increment(rows);
  }

  void downloadBytes(String type, long bytes) {
    counter("sf2loki_eventlogfile_download_bytes", "event_type", type).increment(bytes);
  }

  void schemaChange(String type) {
    counter("sf2loki_eventlogfile_schema_changes", "event_type", type).increment();
  }

  void downloadError(String reason) {
    counter("sf2loki_eventlogfile_download_errors", "reason", reason).increment();
  }

  void throttled(String api) {
    counter("sf2loki_salesforce_api_throttled", "api", api).increment();
  }

  void pollError(String object) {
    registry.counter("sf2loki_soql_poll_errors", "source", SOURCE, "object", object).increment();
  }

  void checkpointLoadError() {
    counter("sf2loki_checkpoint_load_errors", "source", SOURCE).increment();
  }

  void cycleSeconds(long millis) {
    cycleMillis.set(millis);
  }

  private Counter counter(String name, String tag, String value) {
    return registry.counter(name, tag, value);
  }
}
