package io.sf2loki.daemon.ha;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Samples the checkpoint document every 50 ms on its own thread and records every regression: an
 * EventLogFile watermark ({@code last_created}), an event object's watermark ({@code last_ts}) or
 * the {@code __fence_epoch__} going backwards, and, when given an order, any other key of a prefix
 * (such as {@code pubsub:}, whose opaque replay ids only a test knows the order of). {@link #fed()}
 * makes one that only checks the documents handed to {@link #observe}, such as every version a
 * store write log recorded.
 */
public final class CheckpointMonitor implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter SALESFORCE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXX");

  private final Supplier<Map<String, String>> state;
  private final Map<String, OffsetDateTime> watermarks = new HashMap<>();
  private final String orderedPrefix;
  private final ToLongFunction<String> order;
  private final Map<String, Long> positions = new HashMap<>();
  private final List<String> regressions = new ArrayList<>();
  private final Thread sampler;
  private long epoch = -1;
  private int samples;

  /** Samples {@code state} every 50 ms until {@link #close()}. */
  public CheckpointMonitor(Supplier<Map<String, String>> state) {
    this(state, "\0", v -> 0);
  }

  /**
   * Samples {@code state} every 50 ms until {@link #close()}, also checking that the values of the
   * keys starting with {@code prefix} never go backwards by {@code order}.
   */
  public CheckpointMonitor(
      Supplier<Map<String, String>> state, String prefix, ToLongFunction<String> order) {
    this.state = state;
    this.orderedPrefix = prefix;
    this.order = order;
    this.sampler = new Thread(this::loop, "checkpoint-monitor");
    sampler.setDaemon(true);
    sampler.start();
  }

  private CheckpointMonitor() {
    this.state = Map::of;
    this.orderedPrefix = "\0";
    this.order = v -> 0;
    this.sampler = null;
  }

  /** A monitor without a sampler: it checks only what {@link #observe} is given, in order. */
  public static CheckpointMonitor fed() {
    return new CheckpointMonitor();
  }

  /** Checks one version of the document against every version seen before it. */
  public void observe(Map<String, String> doc) {
    try {
      sample(doc);
    } catch (RuntimeException | IOException e) {
      record("unreadable checkpoint document: " + e);
    }
  }

  private void loop() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        sample(state.get());
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException | IOException e) {
        record("unreadable checkpoint document: " + e);
      }
    }
  }

  private synchronized void sample(Map<String, String> doc) throws IOException {
    samples++;
    String fence = doc.get("__fence_epoch__");
    if (fence != null) {
      long e = Long.parseLong(fence);
      if (e < epoch) {
        regressions.add("__fence_epoch__ went from " + epoch + " to " + e);
      }
      epoch = Math.max(epoch, e);
    }
    for (Map.Entry<String, String> entry : doc.entrySet()) {
      if (entry.getKey().startsWith(orderedPrefix)) {
        long at = order.applyAsLong(entry.getValue());
        Long before = positions.put(entry.getKey(), at);
        if (before != null && at < before) {
          regressions.add(entry.getKey() + " went from position " + before + " to " + at);
          positions.put(entry.getKey(), before);
        }
        continue;
      }
      String field =
          entry.getKey().startsWith("eventlogfile:")
              ? "last_created"
              : entry.getKey().startsWith("eventlog_objects:") ? "last_ts" : null;
      if (field == null) {
        continue;
      }
      JsonNode value = JSON.readTree(entry.getValue());
      OffsetDateTime mark = OffsetDateTime.parse(value.path(field).asText(), SALESFORCE);
      OffsetDateTime before = watermarks.get(entry.getKey());
      if (before != null && mark.isBefore(before)) {
        regressions.add(entry.getKey() + " went from " + before + " to " + mark);
      }
      if (before == null || mark.isAfter(before)) {
        watermarks.put(entry.getKey(), mark);
      }
    }
  }

  private synchronized void record(String problem) {
    regressions.add(problem);
  }

  /** Every regression seen so far. */
  public synchronized List<String> regressions() {
    return List.copyOf(regressions);
  }

  /** Documents read so far. */
  public synchronized int samples() {
    return samples;
  }

  @Override
  public void close() {
    if (sampler == null) {
      return;
    }
    sampler.interrupt();
    try {
      sampler.join(TestTiming.seconds(2).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
