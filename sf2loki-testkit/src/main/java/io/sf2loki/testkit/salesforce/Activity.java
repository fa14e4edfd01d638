package io.sf2loki.testkit.salesforce;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Synthetic org activity while a test or demo runs: new Hourly EventLogFiles per type, and new
 * LoginHistory records for the event-object source.
 */
final class Activity {

  private final FakeSalesforce fake;
  private ScheduledExecutorService scheduler;

  Activity(FakeSalesforce fake) {
    this.fake = fake;
  }

  /** The event object the activity also generates records of. */
  static final String ACTIVITY_OBJECT = "LoginHistory";

  synchronized void start(Duration period, List<String> eventTypes, long rows) {
    if (scheduler != null) {
      throw new IllegalStateException("activity already started");
    }
    fake.eventObjects().define(ACTIVITY_OBJECT, "LoginTime", false);
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
    // Real-time event objects: a few LoginHistory records per tick, stamped a moment ago.
    for (long i = 0; i < Math.max(1, rows / 4); i++) {
      fake.eventObjects()
          .add(
              ACTIVITY_OBJECT,
              now.minusMillis(1000 - i),
              Instant.MIN,
              java.util.Map.of(
                  "UserId",
                  String.format("005D0000%07dAAA", i % 7),
                  "Status",
                  i % 5 == 0 ? "Invalid Password" : "Success",
                  "LoginType",
                  "Application"));
    }
  }

  synchronized void stop() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
  }
}
