package io.sf2loki.pipeline.egress;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.Source;
import java.time.Duration;
import java.time.LocalDate;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The egress instruments, registered once per registry and shared by every run's governor: the
 * day's use and limit, which lanes are paused (and until when, for readiness), time spent waiting
 * on rate caps, and stored budget values that could not be read. Thread-safe.
 */
public final class EgressMetrics {

  private final AtomicLong used = new AtomicLong();
  private final AtomicLong limit = new AtomicLong();
  private final Map<Source.Lane, AtomicReference<LocalDate>> pausedUntil =
      new EnumMap<>(Source.Lane.class);
  private final Map<Source.Lane, Counter> throttled = new EnumMap<>(Source.Lane.class);
  private final Counter loadErrors;

  /** Registers the egress meters on {@code registry}. */
  public EgressMetrics(MeterRegistry registry) {
    Gauge.builder("sf2loki_egress_budget_used_bytes", used, AtomicLong::get)
        .description("Line bytes pushed to Loki on the current UTC day (sink.loki.egress)")
        .register(registry);
    Gauge.builder("sf2loki_egress_budget_limit_bytes", limit, AtomicLong::get)
        .description("sink.loki.egress.daily_byte_budget; 0 when no budget is set")
        .register(registry);
    for (Source.Lane lane : Source.Lane.values()) {
      String name = lane.name().toLowerCase(Locale.ROOT);
      AtomicReference<LocalDate> until = new AtomicReference<>();
      pausedUntil.put(lane, until);
      Gauge.builder("sf2loki_egress_paused", until, u -> u.get() == null ? 0 : 1)
          .description("1 while the lane holds a batch until the next UTC day (budget spent)")
          .tag("lane", name)
          .register(registry);
      throttled.put(
          lane,
          Counter.builder("sf2loki_egress_throttled_seconds")
              .description("Time the lane waited on its rate caps (sink.loki.egress.<lane>)")
              .tag("lane", name)
              .register(registry));
    }
    loadErrors =
        Counter.builder("sf2loki_egress_budget_load_errors")
            .description("Stored egress:budget values that could not be read (use restarted at 0)")
            .register(registry);
  }

  void limit(long bytes) {
    limit.set(bytes);
  }

  void used(long bytes) {
    used.set(bytes);
  }

  void paused(Source.Lane lane, LocalDate until) {
    pausedUntil.get(lane).set(until);
  }

  void resumed(Source.Lane lane) {
    pausedUntil.get(lane).set(null);
  }

  void throttled(Source.Lane lane, Duration waited) {
    throttled.get(lane).increment(waited.toNanos() / 1e9);
  }

  /** Counts a stored day's use that could not be read. */
  public void loadError() {
    loadErrors.increment();
  }

  /**
   * The UTC date the paused lanes wait for, while any lane holds a batch for lack of budget; feeds
   * the readiness probe.
   */
  public Optional<LocalDate> pausedUntil() {
    return pausedUntil.values().stream()
        .map(AtomicReference::get)
        .filter(java.util.Objects::nonNull)
        .max(LocalDate::compareTo);
  }
}
