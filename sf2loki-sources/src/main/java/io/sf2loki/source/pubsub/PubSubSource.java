package io.sf2loki.source.pubsub;

import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code pubsub} source: one {@link TopicSubscriber} thread per topic, all emitting on the
 * streaming lane, plus periodic rediscovery of {@code "*"}. With no topic the run ends at once. A
 * subscriber's failure (only {@code invalid_replay_id = fail} ends one) ends the run.
 */
public final class PubSubSource implements Source {

  /** The config type, {@code source} label and metric attribute. */
  public static final String SOURCE = "pubsub";

  private static final Logger LOG = LoggerFactory.getLogger(PubSubSource.class);
  private static final Duration CHECK = Duration.ofMillis(500);

  /** Lists the topics of the run (explicit, discovered). */
  @FunctionalInterface
  interface Topics {
    Iterable<String> list() throws Exception;
  }

  private final Topics topics;
  private final Function<String, TopicSubscriber> subscribers;
  private final Duration rediscovery;
  private final ThreadFactory threads;
  private final Closeable resources;

  PubSubSource(
      Topics topics,
      Function<String, TopicSubscriber> subscribers,
      Duration rediscovery,
      ThreadFactory threads,
      Closeable resources) {
    this.topics = topics;
    this.subscribers = subscribers;
    this.rediscovery = rediscovery;
    this.threads = threads;
    this.resources = resources;
  }

  @Override
  public String name() {
    return SOURCE;
  }

  @Override
  public Lane lane() {
    return Lane.STREAMING;
  }

  @Override
  public void run(SourceContext ctx) throws Exception {
    Map<String, Thread> running = new LinkedHashMap<>();
    AtomicReference<Exception> failed = new AtomicReference<>();
    try {
      start(ctx, running, failed);
      if (running.isEmpty()) {
        LOG.info("pubsub: no topics to subscribe to; the source ends");
        return;
      }
      long sinceDiscovery = 0;
      while (!ctx.awaitStop(CHECK)) {
        if (failed.get() != null) {
          throw failed.get();
        }
        sinceDiscovery += CHECK.toMillis();
        if (!rediscovery.isZero() && sinceDiscovery >= rediscovery.toMillis()) {
          sinceDiscovery = 0;
          try {
            start(ctx, running, failed);
          } catch (InterruptedException e) {
            throw e;
          } catch (Exception e) {
            LOG.warn("pubsub: rediscovery failed, keeping the current topics: {}", e.toString());
          }
        }
      }
    } finally {
      stop(running.values());
      resources.close();
    }
    if (failed.get() != null) {
      throw failed.get();
    }
  }

  private void start(
      SourceContext ctx, Map<String, Thread> running, AtomicReference<Exception> failed)
      throws Exception {
    for (String topic : topics.list()) {
      if (running.containsKey(topic)) {
        continue;
      }
      TopicSubscriber subscriber = subscribers.apply(topic);
      Thread t =
          threads.newThread(
              () -> {
                try {
                  subscriber.run(ctx);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (Exception e) {
                  LOG.error("pubsub {}: the subscription ended: {}", topic, e.getMessage());
                  failed.compareAndSet(null, e);
                }
              });
      t.setName("pubsub-" + EventEntries.eventType(topic));
      running.put(topic, t);
      t.start();
    }
  }

  private static void stop(Iterable<Thread> threads) throws InterruptedException {
    List<Thread> all = new ArrayList<>();
    threads.forEach(all::add);
    for (Thread t : all) {
      t.join(2_000); // subscribers see the stop within a poll
      if (t.isAlive()) {
        t.interrupt();
        t.join(2_000);
      }
    }
  }

  /** Closes the channel and the HTTP client. */
  static Closeable closing(AutoCloseable... resources) {
    return () -> {
      for (AutoCloseable r : resources) {
        try {
          r.close();
        } catch (Exception e) {
          throw new IOException(e);
        }
      }
    };
  }
}
