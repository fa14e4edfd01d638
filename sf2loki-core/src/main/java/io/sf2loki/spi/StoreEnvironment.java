package io.sf2loki.spi;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * What a launcher gives a store it creates.
 *
 * @param singleInstance true under the {@code noop} coordinator: the store must guard against a
 *     second instance itself (the file store's lifetime lock); false under a lease coordinator,
 *     which is the exclusivity mechanism and whose demoted process must never block the promoted
 *     one
 * @param clock wall clock
 * @param metrics where the store reports its failures
 * @param threads makes the threads a store starts of its own (the file store's I/O threads, which
 *     run its file-system calls under a deadline); daemon threads, as {@link NamedThreadFactory}
 *     makes them
 */
public record StoreEnvironment(
    boolean singleInstance, Clock clock, MeterRegistry metrics, ThreadFactory threads) {

  public StoreEnvironment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(threads, "threads");
  }

  /**
   * An environment whose store threads are made by a {@link NamedThreadFactory} of its own, named
   * {@code sf2loki-store-<n>} (tools and tests; a launcher passes its factory).
   */
  public StoreEnvironment(boolean singleInstance, Clock clock, MeterRegistry metrics) {
    this(singleInstance, clock, metrics, new NamedThreadFactory("sf2loki-store"));
  }
}
