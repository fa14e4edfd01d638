package io.sf2loki.spi;

import java.time.Duration;

/** A one-way request to stop, observable by polling or by waiting. Thread-safe. */
public interface StopSignal {

  /** True once a stop was requested; never turns false again. */
  boolean isStopRequested();

  /**
   * Waits up to {@code timeout} for a stop request.
   *
   * @return true when a stop was requested (before or during the wait)
   */
  boolean awaitStop(Duration timeout) throws InterruptedException;
}
