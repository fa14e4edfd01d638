package io.sf2loki.testkit.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A UTC wall clock that stands still until a test moves it. Thread-safe. */
public final class ManualClock extends Clock {

  private final AtomicReference<Instant> now;

  public ManualClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /** Moves the clock forward by {@code d}. */
  public void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }

  /** Sets the clock to {@code instant}. */
  public void set(Instant instant) {
    now.set(instant);
  }

  @Override
  public ZoneOffset getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now.get();
  }
}
