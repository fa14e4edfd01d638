package io.sf2loki.spi;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * What a launcher gives a coordinator it creates.
 *
 * @param clock wall clock (lease documents carry wall-clock expiries)
 * @param ticker monotonic clock for local durations (renewal age, observed staleness)
 * @param epochFloor the store's persisted epoch, consulted at every acquire (invariant 2); empty
 *     when the store lacks the capability
 * @param metrics where the coordinator reports acquisitions and losses
 */
public record CoordinatorEnvironment(
    Clock clock, Ticker ticker, Optional<EpochFloor> epochFloor, MeterRegistry metrics) {

  public CoordinatorEnvironment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ticker, "ticker");
    Objects.requireNonNull(epochFloor, "epochFloor");
    Objects.requireNonNull(metrics, "metrics");
  }
}
