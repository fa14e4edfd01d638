package io.sf2loki.daemon.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.EventObjects;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileCsv;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares what the org generated up to a cut-off with what the fake Loki stored. An EventLogFile
 * row is known by its event type and {@code REQUEST_ID}, an event-object record by its object and
 * {@code Id}. Reads the stored entries incrementally, so it can be asked again and again while the
 * pair catches up.
 */
final class DeliveryAudit {

  /**
   * The outcome.
   *
   * @param logFileRows EventLogFile rows generated up to the cut-off
   * @param objectRecords event-object records generated up to the cut-off
   * @param lost generated events that Loki does not hold
   * @param lostSample a few of them
   * @param storedTwice events Loki holds more than once
   * @param resent entries Loki received again and dropped as exact duplicates
   */
  record Delivery(
      long logFileRows,
      long objectRecords,
      long lost,
      List<String> lostSample,
      long storedTwice,
      long resent) {

    long events() {
      return logFileRows + objectRecords;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Set<String> expected = new LinkedHashSet<>();
  private final long logFileRows;
  private final long objectRecords;
  private final Map<String, Integer> stored = new HashMap<>();
  private int entriesRead;

  /** What the org generated: {@code files} and the records of {@code objects}. */
  DeliveryAudit(
      FakeSalesforce salesforce, List<LogFileSpec> files, List<EventObjects.Row> objects) {
    long rows = 0;
    for (LogFileSpec file : files) {
      LogFileCsv csv = salesforce.csv(file);
      for (long i = 0; i < file.rows(); i++) {
        Map<String, String> row = csv.expectedRow(i);
        expected.add(logFileKey(row.get("EVENT_TYPE"), row.get("REQUEST_ID")));
        rows++;
      }
    }
    for (EventObjects.Row row : objects) {
      expected.add(objectKey(row.object(), row.id()));
    }
    this.logFileRows = rows;
    this.objectRecords = objects.size();
  }

  private static String logFileKey(String eventType, String requestId) {
    return "EventLogFile " + eventType + " " + requestId;
  }

  private static String objectKey(String object, String id) {
    return object + " " + id;
  }

  /** The generated events Loki does not hold (yet). */
  synchronized Set<String> missing(FakeLoki loki) {
    read(loki);
    Set<String> missing = new LinkedHashSet<>();
    for (String key : expected) {
      if (!stored.containsKey(key)) {
        missing.add(key);
      }
    }
    return missing;
  }

  /** The outcome as Loki holds it now. */
  synchronized Delivery result(FakeLoki loki) {
    Set<String> missing = missing(loki);
    long twice = stored.values().stream().filter(n -> n > 1).count();
    return new Delivery(
        logFileRows,
        objectRecords,
        missing.size(),
        missing.stream().limit(5).toList(),
        twice,
        loki.stats().duplicates());
  }

  private void read(FakeLoki loki) {
    List<AcceptedEntry> entries = loki.entries();
    for (; entriesRead < entries.size(); entriesRead++) {
      AcceptedEntry entry = entries.get(entriesRead);
      String key = key(entry);
      if (key != null) {
        stored.merge(key, 1, Integer::sum);
      }
    }
  }

  /** The event an entry carries; null for an entry of neither kind. */
  private static String key(AcceptedEntry entry) {
    JsonNode line;
    try {
      line = JSON.readTree(entry.line());
    } catch (IOException e) {
      throw new UncheckedIOException("a stored line is not JSON: " + entry.line(), e);
    }
    if (line.hasNonNull("REQUEST_ID")) {
      return logFileKey(line.path("EVENT_TYPE").asText(), line.get("REQUEST_ID").asText());
    }
    String object = entry.labels().get("event_type");
    return line.hasNonNull("Id") && object != null
        ? objectKey(object, line.get("Id").asText())
        : null;
  }
}
