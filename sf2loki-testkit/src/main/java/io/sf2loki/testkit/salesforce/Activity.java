package io.sf2loki.testkit.salesforce;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Synthetic org activity: new Hourly files appear over time while a test or demo runs. */
final class Activity {

  private final FakeSalesforce fake;
  private ScheduledExecutorService scheduler;

  Activity(FakeSalesforce fake) {
    this.fake = fake;
  }

  synchronized void start(Duration period, List<String> eventTypes, long rows) {
    if (scheduler != null) {
      throw new IllegalStateException("activity already started");
    }
    List<String> types = List.copyOf(eventTypes);
    scheduler = Executors.newSingleThreadScheduledExecutor();
    scheduler.scheduleAtFixedRate(
        () -> produce(types, rows), 0, period.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void produce(List<String> types, long rows) {
    Instant now = fake.serverNow();
    for (String type : types) {
      // The previous full hour: rows spread over it are all in the past, like a real Hourly file.
      Instant hour = now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
      fake.addLogFile(type, "Hourly", hour, now, rows);
    }
  }

  synchronized void stop() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
  }
}
