package io.sf2loki.daemon.soak;

import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waiting for a condition of the running system by polling it. The soak drives real processes on
 * real time, so it polls rather than sleeping a guessed time; the clock and the sleeper are
 * injected all the same.
 *
 * @param ticker the monotonic clock deadlines are measured on
 * @param sleeper how the poll waits
 * @param interval the pause between two checks
 */
record Polling(Ticker ticker, Sleeper sleeper, Duration interval) {

  /** Polls {@code condition} every {@link #interval()} for up to {@code timeout}. */
  boolean until(BooleanSupplier condition, Duration timeout) throws InterruptedException {
    long deadline = ticker.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (ticker.nanoTime() - deadline > 0) {
        return false;
      }
      sleeper.sleep(interval);
    }
    return true;
  }

  /** Nanoseconds on the polling clock. */
  long now() {
    return ticker.nanoTime();
  }

  /** The time since {@code start} (a {@link #now()} value). */
  Duration since(long start) {
    return Duration.ofNanos(ticker.nanoTime() - start);
  }
}
