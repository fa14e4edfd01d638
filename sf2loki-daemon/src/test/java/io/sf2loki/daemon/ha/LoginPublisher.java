package io.sf2loki.daemon.ha;

import com.google.protobuf.ByteString;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.DecodedEntry;
import io.sf2loki.testkit.loki.DecodedStream;
import io.sf2loki.testkit.loki.RecordedPush;
import io.sf2loki.testkit.pubsub.FakePubSub;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Publishes numbered {@code LoginEventStream} events ({@code EventIdentifier = ev-N}) to a fake
 * Pub/Sub at a steady rate on its own thread, up to a bound, and knows each one's replay id: the
 * order of the opaque ids a checkpoint holds, and which events a fake Loki's lines carry.
 */
final class LoginPublisher implements AutoCloseable {

  /** The topic published to. */
  static final String TOPIC = FakePubSub.LOGIN;

  /** The checkpoint key of {@link #TOPIC}. */
  static final String KEY = "pubsub:" + TOPIC;

  private static final Pattern IDENTIFIER = Pattern.compile("\"EventIdentifier\": \"ev-(\\d+)\"");

  private final FakePubSub pubsub;
  private final int limit;
  private final List<ByteString> ids = new CopyOnWriteArrayList<>();
  private final Map<String, Integer> indexByCheckpoint = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "login-publisher");
            t.setDaemon(true);
            return t;
          });

  /** Publishes {@code perTick} events every {@code tick} until {@code limit} were published. */
  LoginPublisher(FakePubSub pubsub, int perTick, Duration tick, int limit) {
    this.pubsub = pubsub;
    this.limit = limit;
    timer.scheduleAtFixedRate(() -> publish(perTick), 0, tick.toMillis(), TimeUnit.MILLISECONDS);
  }

  private synchronized void publish(int n) {
    for (int i = 0; i < n && ids.size() < limit; i++) {
      int index = ids.size();
      ByteString id =
          pubsub.publish(
              TOPIC,
              Map.of(
                  "EventIdentifier", "ev-" + index,
                  "Username", "user" + index + "@example.com",
                  "EventDate", System.currentTimeMillis()));
      indexByCheckpoint.put(Base64.getEncoder().encodeToString(id.toByteArray()), index);
      ids.add(id);
    }
  }

  /** Stops publishing; returns how many events were published. */
  int stop() throws InterruptedException {
    timer.shutdown();
    timer.awaitTermination(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS);
    return published();
  }

  /** Events published so far. */
  int published() {
    return ids.size();
  }

  /** The replay id of event {@code index}. */
  ByteString replayId(int index) {
    return ids.get(index);
  }

  /**
   * The event a checkpoint value ({@code pubsub:<topic>}, base64) names; -1 for an id that is no
   * event of this publisher (a keepalive position).
   */
  int indexOf(String checkpoint) {
    return indexByCheckpoint.getOrDefault(checkpoint, -1);
  }

  /** The events {@code lines} (a fake Loki's) carry, by number. */
  static TreeSet<Integer> events(List<String> lines) {
    TreeSet<Integer> out = new TreeSet<>();
    for (String line : lines) {
      Matcher m = IDENTIFIER.matcher(line);
      if (m.find()) {
        out.add(Integer.parseInt(m.group(1)));
      }
    }
    return out;
  }

  /** How often each event was sent to Loki over {@code pushes}, duplicates included. */
  static Map<Integer, Integer> sends(List<RecordedPush> pushes) {
    Map<Integer, Integer> out = new TreeMap<>();
    for (RecordedPush push : pushes) {
      for (DecodedStream stream : push.streams()) {
        events(stream.entries().stream().map(DecodedEntry::line).toList())
            .forEach(i -> out.merge(i, 1, Integer::sum));
      }
    }
    return out;
  }

  /** The events {@link #sends} counts more than once. */
  static List<Integer> sentTwice(List<RecordedPush> pushes) {
    return sends(pushes).entrySet().stream()
        .filter(e -> e.getValue() > 1)
        .map(Map.Entry::getKey)
        .toList();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
