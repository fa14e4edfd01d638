package io.sf2loki.daemon.bench;

import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.TopicSchemas;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Publishes numbered LoginEventStream events ({@code EventIdentifier = "bench-<seq>"}) to a fake
 * Pub/Sub on its own thread: at a steady rate, or as fast as it can while at most {@code maxLead}
 * events are published but not yet arrived (so a ceiling run measures the consumer, not an
 * ever-growing backlog).
 */
final class PacedPublisher implements AutoCloseable {

  private final FakePubSub pubsub;
  private final String topic;
  private final FreshnessRecorder recorder;
  private final long periodNanos; // 0: as fast as the lead allows
  private final long count;
  private final long maxLead;
  private final LongSupplier arrived;
  private final BenchLoginEvents events = new BenchLoginEvents(TopicSchemas.loginEventStream());
  private final Thread thread = new Thread(this::run, "bench-publisher");
  private volatile long published;
  private volatile boolean stopped;

  private PacedPublisher(
      FakePubSub pubsub,
      String topic,
      FreshnessRecorder recorder,
      long periodNanos,
      long count,
      long maxLead,
      LongSupplier arrived) {
    this.pubsub = pubsub;
    this.topic = topic;
    this.recorder = recorder;
    this.periodNanos = periodNanos;
    this.count = count;
    this.maxLead = maxLead;
    this.arrived = arrived;
    thread.setDaemon(true);
  }

  /** {@code perSecond} events a second, numbered 0 to {@code count - 1}. */
  static PacedPublisher atRate(
      FakePubSub pubsub, String topic, FreshnessRecorder recorder, int perSecond, long count) {
    long period = TimeUnit.SECONDS.toNanos(1) / perSecond;
    return start(new PacedPublisher(pubsub, topic, recorder, period, count, count, () -> 0));
  }

  /** As fast as it can, keeping {@code published - arrived <= maxLead}, up to the capacity. */
  static PacedPublisher flatOut(
      FakePubSub pubsub, String topic, FreshnessRecorder recorder, long maxLead) {
    return start(
        new PacedPublisher(
            pubsub, topic, recorder, 0, recorder.capacity(), maxLead, recorder::arrivedCount));
  }

  private static PacedPublisher start(PacedPublisher p) {
    p.thread.start();
    return p;
  }

  private void run() {
    long start = System.nanoTime();
    for (long seq = 0; seq < count && !stopped; seq++) {
      long wait;
      while ((wait = start + seq * periodNanos - System.nanoTime()) > 0) {
        LockSupport.parkNanos(wait);
      }
      while (seq - arrived.getAsLong() > maxLead && !stopped) {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
      }
      publish(seq);
    }
  }

  private void publish(long seq) {
    byte[] payload = events.encode(seq, System.currentTimeMillis());
    recorder.published(seq, System.nanoTime());
    pubsub.publishEncoded(topic, payload);
    published = seq + 1;
  }

  /** Events published so far. */
  long published() {
    return published;
  }

  @Override
  public void close() {
    stopped = true;
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
