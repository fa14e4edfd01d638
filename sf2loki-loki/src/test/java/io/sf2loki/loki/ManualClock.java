package io.sf2loki.loki;

import io.sf2loki.pipeline.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A wall clock tests move by hand, and a {@link Sleeper} that moves it instead of waiting: shared
 * by a sink and the fake Loki, a held push sees Loki's clock pass too. Thread-safe.
 */
public final class ManualClock extends Clock {

  private final AtomicReference<Instant> now;
  private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

  public ManualClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  public void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }

  /** Sleeps by advancing this clock, recording each wait. */
  public Sleeper sleeper() {
    return d -> {
      sleeps.add(d);
      advance(d);
    };
  }

  public List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("UTC only");
  }
}
