package io.sf2loki.loki;

import io.sf2loki.pipeline.Sleeper;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link Sleeper} that records the waits asked for and returns at once. */
public final class RecordingSleeper implements Sleeper {

  private final List<Duration> waits = new CopyOnWriteArrayList<>();

  @Override
  public void sleep(Duration duration) {
    waits.add(duration);
  }

  public List<Duration> waits() {
    return List.copyOf(waits);
  }
}
