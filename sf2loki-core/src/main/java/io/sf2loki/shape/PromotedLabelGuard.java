package io.sf2loki.shape;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime cardinality guard of promoted labels: each promoted label may take at most {@code
 * maxValues} distinct values per process; a value beyond that is not promoted (the field stays in
 * the line), with one WARN per label and {@code sf2loki_label_values_capped{source,label}} counted
 * per entry that lost its label. Thread-safe.
 */
public final class PromotedLabelGuard {

  private static final Logger LOG = LoggerFactory.getLogger(PromotedLabelGuard.class);

  private final String source;
  private final int maxValues;
  private final MeterRegistry metrics;
  private final Map<String, Set<String>> seen = new ConcurrentHashMap<>();
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  public PromotedLabelGuard(String source, int maxValues, MeterRegistry metrics) {
    this.source = source;
    this.maxValues = maxValues;
    this.metrics = metrics;
  }

  /** True when {@code label=value} may be written; records the value when it is new. */
  public boolean admit(String label, String value) {
    Set<String> values = seen.computeIfAbsent(label, k -> ConcurrentHashMap.newKeySet());
    if (values.contains(value)) {
      return true;
    }
    synchronized (values) {
      if (values.size() < maxValues) {
        values.add(value);
        return true;
      }
    }
    if (warned.add(label)) {
      LOG.warn(
          "promoted label '{}' of source {} reached {} distinct values; further values stay in the"
              + " line only (raise max_label_values or stop promoting it)",
          label,
          source,
          maxValues);
    }
    Counter.builder("sf2loki_label_values_capped")
        .tag("source", source)
        .tag("label", label)
        .register(metrics)
        .increment();
    return false;
  }
}
