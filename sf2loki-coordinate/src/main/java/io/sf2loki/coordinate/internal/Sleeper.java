package io.sf2loki.coordinate.internal;

import io.sf2loki.spi.StopSignal;
import java.time.Duration;

/**
 * Waits between lease operations. Injected so that tests drive simulated time instead of sleeping
 * for a ttl of wall time.
 */
@FunctionalInterface
public interface Sleeper {

  /** Waits on the real clock, waking early when a stop is requested. */
  Sleeper REAL = (duration, stop) -> stop.awaitStop(duration);

  /**
   * Waits {@code duration}, returning early when {@code stop} fires.
   *
   * @return true when a stop was requested (before or during the wait)
   * @throws InterruptedException the calling thread was interrupted
   */
  boolean sleep(Duration duration, StopSignal stop) throws InterruptedException;
}
