package io.sf2loki.testkit.pubsub;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A UTC clock that stands still until a test moves it, for the fake's retention window. */
final class SettableClock extends Clock {

  private final AtomicReference<Instant> now;

  SettableClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
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
