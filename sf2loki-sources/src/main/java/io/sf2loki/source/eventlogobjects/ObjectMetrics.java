package io.sf2loki.source.eventlogobjects;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The counters of the polling sources (operations reference §7), for {@code source} =
 * eventlog_objects or apexlog.
 */
public final class ObjectMetrics {

  private final String source;
  private final MeterRegistry registry;

  public ObjectMetrics(String source, MeterRegistry registry) {
    this.source = source;
    this.registry = registry;
  }

  /** {@code sf2loki_soql_poll_errors{source,object}}. */
  public void pollError(String object) {
    Counter.builder("sf2loki_soql_poll_errors")
        .tag("source", source)
        .tag("object", object)
        .register(registry)
        .increment();
  }

  /** {@code sf2loki_watermark_stalls{source,object}}. */
  public void stall(String object) {
    Counter.builder("sf2loki_watermark_stalls")
        .tag("source", source)
        .tag("object", object)
        .register(registry)
        .increment();
  }

  /** {@code sf2loki_salesforce_api_throttled{api}}. */
  public void throttled(String api) {
    Counter.builder("sf2loki_salesforce_api_throttled")
        .tag("api", api)
        .register(registry)
        .increment();
  }

  /** {@code sf2loki_checkpoint_load_errors{source}}. */
  public void checkpointLoadError() {
    Counter.builder("sf2loki_checkpoint_load_errors")
        .tag("source", source)
        .register(registry)
        .increment();
  }

  /** The registry, for source-specific meters. */
  public MeterRegistry registry() {
    return registry;
  }
}
