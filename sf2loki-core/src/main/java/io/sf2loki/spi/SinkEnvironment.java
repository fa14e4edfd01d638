package io.sf2loki.spi;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * What a launcher gives the sink it creates.
 *
 * @param clock wall clock (Retry-After dates, time windows, dead-letter records)
 * @param metrics where the sink reports pushes, answers and drops
 * @param random randomness for a sink that needs some (the Loki sink needs none: the lane owns
 *     retries and their jitter)
 */
public record SinkEnvironment(Clock clock, MeterRegistry metrics, RandomGenerator random) {

  public SinkEnvironment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(random, "random");
  }
}
