package io.sf2loki.pipeline;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Waits for a duration; injected so retry loops can be tested without real time. */
@FunctionalInterface
public interface Sleeper {

  /** Real sleeping on the calling thread. */
  Sleeper SYSTEM = d -> TimeUnit.NANOSECONDS.sleep(Math.max(0, d.toNanos()));

  /**
   * Waits {@code duration}.
   *
   * @throws InterruptedException when interrupted; the interrupt flag is cleared as usual
   */
  void sleep(Duration duration) throws InterruptedException;
}
