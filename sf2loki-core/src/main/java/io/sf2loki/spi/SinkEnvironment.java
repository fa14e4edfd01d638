package io.sf2loki.spi;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * What a launcher gives the sink it creates.
 *
 * @param clock wall clock (Retry-After dates, time windows, dead-letter records)
 * @param metrics where the sink reports pushes, answers and drops
 * @param random randomness for a sink that needs some (the Loki sink needs none: the lane owns
 *     retries and their jitter)
 * @param promotedLabels label names the configured sources promote from payloads: stream labels the
 *     sink must keep beyond {@link io.sf2loki.model.StreamLabels#ALLOWLIST}
 */
public record SinkEnvironment(
    Clock clock, MeterRegistry metrics, RandomGenerator random, Set<String> promotedLabels) {

  public SinkEnvironment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(random, "random");
    promotedLabels = Set.copyOf(promotedLabels);
  }

  /** An environment for sources that promote no labels. */
  public SinkEnvironment(Clock clock, MeterRegistry metrics, RandomGenerator random) {
    this(clock, metrics, random, Set.of());
  }
}
