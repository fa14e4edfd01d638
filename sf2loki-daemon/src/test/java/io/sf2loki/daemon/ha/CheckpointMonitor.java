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

/**
 * Samples the checkpoint document every 50 ms on its own thread and records every regression: an
 * EventLogFile watermark ({@code last_created}) or the {@code __fence_epoch__} going backwards.
 */
final class CheckpointMonitor implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter SALESFORCE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXX");

  private final Supplier<Map<String, String>> state;
  private final Map<String, OffsetDateTime> watermarks = new HashMap<>();
  private final List<String> regressions = new ArrayList<>();
  private final Thread sampler;
  private long epoch = -1;
  private int samples;

  CheckpointMonitor(Supplier<Map<String, String>> state) {
    this.state = state;
    this.sampler = new Thread(this::loop, "checkpoint-monitor");
    sampler.setDaemon(true);
    sampler.start();
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
      if (!entry.getKey().startsWith("eventlogfile:")) {
        continue;
      }
      JsonNode value = JSON.readTree(entry.getValue());
      OffsetDateTime mark = OffsetDateTime.parse(value.path("last_created").asText(), SALESFORCE);
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
  synchronized List<String> regressions() {
    return List.copyOf(regressions);
  }

  /** Documents read so far. */
  synchronized int samples() {
    return samples;
  }

  @Override
  public void close() {
    sampler.interrupt();
    try {
      sampler.join(TestTiming.seconds(2).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
