package io.sf2loki.spi;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The standard {@link StopSignal}: whoever owns it calls {@link #requestStop()}. */
public final class StopTrigger implements StopSignal {

  private final CountDownLatch latch = new CountDownLatch(1);

  /** Requests a stop; idempotent. */
  public void requestStop() {
    latch.countDown();
  }

  @Override
  public boolean isStopRequested() {
    return latch.getCount() == 0;
  }

  @Override
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    return latch.await(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
  }
}
