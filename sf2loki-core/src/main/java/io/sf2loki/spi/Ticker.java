package io.sf2loki.spi;

/**
 * A monotonic time source for durations (lease renewal age, backoff, timeouts). Never compare it
 * with wall-clock time; inject a controllable one in tests.
 */
@FunctionalInterface
public interface Ticker {

  /** {@link System#nanoTime()}. */
  Ticker SYSTEM = System::nanoTime;

  /** Nanoseconds from an arbitrary fixed origin; only differences are meaningful. */
  long nanoTime();
}
