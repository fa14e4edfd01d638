package io.sf2loki.testkit.sim;

import io.sf2loki.testkit.pubsub.FakePubSub;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes one {@link SampleEvents} event to the fake Pub/Sub every {@code period}, on its own
 * daemon thread, and counts what it published per topic. Thread-safe.
 */
final class PubSubTrickle implements AutoCloseable {

  private final FakePubSub pubsub;
  private final SampleEvents events;
  private final Clock clock;
  private final Map<String, AtomicLong> published = new ConcurrentHashMap<>();
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "simulator-pubsub-trickle");
            t.setDaemon(true);
            return t;
          });

  private PubSubTrickle(FakePubSub pubsub, long seed, Clock clock) {
    this.pubsub = pubsub;
    this.events = new SampleEvents(seed);
    this.clock = clock;
  }

  /** Starts publishing at once, then every {@code period}. */
  static PubSubTrickle start(FakePubSub pubsub, long seed, Duration period, Clock clock) {
    PubSubTrickle trickle = new PubSubTrickle(pubsub, seed, clock);
    trickle.scheduler.scheduleAtFixedRate(
        trickle::publishOne, 0, period.toNanos(), TimeUnit.NANOSECONDS);
    return trickle;
  }

  /** Events published so far, by topic. */
  Map<String, Long> published() {
    Map<String, Long> copy = new TreeMap<>();
    published.forEach((topic, n) -> copy.put(topic, n.get()));
    return copy;
  }

  private void publishOne() {
    SampleEvents.Event e = events.next(clock.instant());
    try {
      pubsub.publish(e.topic(), e.fields());
    } catch (RuntimeException failure) { // a thrown task would silently end the schedule
      System.err.println("simulator: publishing to " + e.topic() + " failed: " + failure);
      return;
    }
    published.computeIfAbsent(e.topic(), t -> new AtomicLong()).incrementAndGet();
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
