package io.sf2loki.connect;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.sf2loki.pipeline.PipelineMetrics;
import io.sf2loki.pipeline.egress.EgressMetrics;
import java.util.LinkedHashMap;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * Exports a sink task's egress meters, which live in the task's own registry, through Connect's
 * plugin metrics (KIP-877): Connect's JMX reporter shows them in {@code
 * kafka.connect:type=plugins,connector=...,task=...}.
 */
final class SinkEgressMetrics {

  private SinkEgressMetrics() {}

  /** Registers the gauges with {@code context}'s plugin metrics, when the worker offers them. */
  static void export(SinkTaskContext context, MeterRegistry registry, EgressMetrics egress) {
    PluginMetrics metrics = context == null ? null : context.pluginMetrics();
    if (metrics == null) {
      return;
    }
    gauge(
        metrics,
        "egress-budget-used-bytes",
        "Line bytes the whole connector pushed to Loki on the current UTC day, as this task last"
            + " counted them (sink.loki.egress)",
        r -> value(r.find("sf2loki_egress_budget_used_bytes")),
        registry);
    gauge(
        metrics,
        "egress-budget-limit-bytes",
        "sink.loki.egress.daily_byte_budget; 0 when no budget is set",
        r -> value(r.find("sf2loki_egress_budget_limit_bytes")),
        registry);
    gauge(
        metrics,
        "egress-budget-read-errors",
        "Reads of the day's egress use from the consumer group's offsets that failed",
        r -> {
          var counter = r.find("sf2loki_egress_budget_read_errors").counter();
          return counter == null ? 0 : counter.count();
        },
        registry);
    gauge(
        metrics,
        "egress-budget-load-errors",
        "Committed offsets' metadata that was not a day's egress use (counted as 0 bytes)",
        r -> {
          var counter = r.find("sf2loki_egress_budget_load_errors").counter();
          return counter == null ? 0 : counter.count();
        },
        registry);
    gauge(
        metrics,
        "egress-budget-dropped-entries",
        "Entries dropped because the day's budget could not take them (budget_action = drop)",
        r ->
            r.find(PipelineMetrics.ENTRIES_DROPPED).tag("reason", "budget").counters().stream()
                .mapToDouble(Counter::count)
                .sum(),
        registry);
    metrics.addMetric(
        metrics.metricName(
            "egress-paused",
            "1 while the task holds entries until the next UTC day (daily byte budget spent)",
            new LinkedHashMap<>()),
        (Gauge<Integer>) (config, now) -> egress.pausedUntil().isPresent() ? 1 : 0);
  }

  private static void gauge(
      PluginMetrics metrics,
      String name,
      String description,
      ToDoubleFunction<MeterRegistry> read,
      MeterRegistry registry) {
    metrics.addMetric(
        metrics.metricName(name, description, new LinkedHashMap<>()),
        (Gauge<Double>) (config, now) -> read.applyAsDouble(registry));
  }

  private static double value(Search search) {
    var gauge = search.gauge();
    return gauge == null ? 0 : gauge.value();
  }
}
