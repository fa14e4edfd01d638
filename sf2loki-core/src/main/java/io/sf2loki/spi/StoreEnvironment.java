package io.sf2loki.spi;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Objects;

/**
 * What a launcher gives a store it creates.
 *
 * @param singleInstance true under the {@code noop} coordinator: the store must guard against a
 *     second instance itself (the file store's lifetime lock); false under a lease coordinator,
 *     which is the exclusivity mechanism and whose demoted process must never block the promoted
 *     one
 * @param clock wall clock
 * @param metrics where the store reports its failures
 */
public record StoreEnvironment(boolean singleInstance, Clock clock, MeterRegistry metrics) {

  public StoreEnvironment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(metrics, "metrics");
  }
}
