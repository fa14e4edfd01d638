package io.sf2loki.daemon.logging;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.config.Durations;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The one-line summary of what changed in the registry since the previous line, like Filebeat's
 * "Non-zero metrics in the last 30s": entries handed on per source ({@code
 * sf2loki_events_ingested}), wire bytes Loki accepted ({@code sf2loki_loki_bytes_pushed}; a batch
 * mixes sources, so they are not split by source), the mean ingest lag per source ({@code
 * sf2loki_ingest_lag_seconds}) and errors by metric (every counter named {@code *_errors} or {@code
 * *_failures}, dropped entries, retried pushes), summed over their other tags. Only non-zero
 * changes appear, as logfmt-style {@code key=value} pairs; nothing changed, no line. Not
 * thread-safe: one caller, the summary loop.
 */
public final class MetricsSummary {

  private static final Pattern ERROR_COUNTER = Pattern.compile("sf2loki_.*_(errors|failures)");

  private final MeterRegistry registry;
  private Map<String, Double> previous = Map.of();

  /** Starts from the registry as it is now: the first line reports only what changes later. */
  public MetricsSummary(MeterRegistry registry) {
    this.registry = registry;
    this.previous = snapshot();
  }

  /**
   * The line for the {@code elapsed} time since the previous one, if anything changed.
   *
   * @param elapsed the time since the previous line, for its {@code in the last …} prefix
   */
  public Optional<String> next(Duration elapsed) {
    Map<String, Double> now = snapshot();
    Map<String, Double> before = previous;
    previous = now;
    StringJoiner out = new StringJoiner(" ");
    Map<String, Double> lagCounts = new TreeMap<>();
    for (Map.Entry<String, Double> e : now.entrySet()) {
      double delta = e.getValue() - before.getOrDefault(e.getKey(), 0d);
      if (delta <= 0) {
        continue;
      }
      String key = e.getKey();
      if (key.startsWith("lag_count.")) {
        lagCounts.put(key.substring("lag_count.".length()), delta);
      } else if (!key.startsWith("lag_sum.")) {
        out.add(key + "=" + Math.round(delta));
      }
    }
    lagCounts.forEach(
        (source, count) -> {
          String sum = "lag_sum." + source;
          double seconds = (now.get(sum) - before.getOrDefault(sum, 0d)) / count;
          out.add(
              "lag_avg."
                  + source
                  + "="
                  + Durations.format(Duration.ofSeconds(Math.round(seconds))));
        });
    if (out.length() == 0) {
      return Optional.empty();
    }
    return Optional.of("non-zero metrics in the last " + Durations.format(elapsed) + ": " + out);
  }

  /** The running totals the line is made of, by their key in the line (sorted). */
  private Map<String, Double> snapshot() {
    Map<String, Double> totals = new HashMap<>();
    for (Meter meter : registry.getMeters()) {
      String name = meter.getId().getName();
      String source = meter.getId().getTag("source");
      if (meter instanceof Counter counter) {
        key(name, meter).ifPresent(k -> totals.merge(k, counter.count(), Double::sum));
      } else if (meter instanceof DistributionSummary lag
          && name.equals("sf2loki_ingest_lag_seconds")
          && source != null) {
        totals.merge("lag_count." + source, (double) lag.count(), Double::sum);
        totals.merge("lag_sum." + source, lag.totalAmount(), Double::sum);
      }
    }
    return new TreeMap<>(totals);
  }

  /** A counter's key in the line, when the summary reports it. */
  private static Optional<String> key(String name, Meter meter) {
    String source = meter.getId().getTag("source");
    if (name.equals("sf2loki_events_ingested") && source != null) {
      return Optional.of("entries." + source);
    }
    if (name.equals("sf2loki_loki_bytes_pushed")) {
      return Optional.of("loki_bytes");
    }
    if (name.equals("sf2loki_loki_push")) {
      return "retried".equals(meter.getId().getTag("outcome"))
          ? Optional.of("loki_push_retried")
          : Optional.empty();
    }
    if (name.equals("sf2loki_loki_entries_dropped") || ERROR_COUNTER.matcher(name).matches()) {
      return Optional.of(name.substring("sf2loki_".length()));
    }
    return Optional.empty();
  }
}
