package io.sf2loki.connect;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What the crash tests read back: the source topic's records as rows (which source partition each
 * came from and where in it), and the source offsets committed in Connect's offsets topic, which
 * tell whether a row lies in a partition's uncommitted tail.
 */
final class CrashRows {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() {};
  private static final DateTimeFormatter SALESFORCE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

  private CrashRows() {}

  /**
   * One entry of the topic.
   *
   * @param identity its labels and line: equal for a row written twice
   * @param partition its source partition ({@code org}, {@code key}) as the offsets topic names it
   * @param time its event time
   * @param id the record's Salesforce Id (event objects), or empty
   */
  record Row(String identity, Map<String, String> partition, Instant time, Optional<String> id) {}

  /**
   * The rows of {@code records}, checkpoint-only records left out.
   *
   * @param logFileTypes the EventLogFile types; any other {@code event_type} is an event object
   */
  static List<Row> rows(List<ConsumerRecord<String, String>> records, Set<String> logFileTypes) {
    return records.stream()
        .filter(r -> r.value() != null)
        .map(r -> row(r.value(), logFileTypes))
        .toList();
  }

  private static Row row(String value, Set<String> logFileTypes) {
    JsonNode entry = tree(value);
    JsonNode labels = entry.get("labels");
    String type = labels.get("event_type").asText();
    String key = (logFileTypes.contains(type) ? "eventlogfile:" : "eventlog_objects:") + type;
    long nanos = entry.get("timestamp_ns").asLong();
    JsonNode line = tree(entry.get("line").asText());
    return new Row(
        // the labels sorted: each worker's JVM writes the map in an order of its own
        new TreeMap<>(JSON.convertValue(labels, LABELS)) + entry.get("line").asText(),
        EntryRecords.partition(labels.get("org").asText(), key),
        Instant.ofEpochSecond(0, nanos),
        Optional.ofNullable(line.get("Id")).map(JsonNode::asText));
  }

  /**
   * The source offsets of {@code connector} in Connect's offsets topic, the last one per partition;
   * a reset (null) partition is absent.
   */
  static Map<Map<String, String>, JsonNode> committed(
      List<ConsumerRecord<String, String>> offsetsTopic, String connector) {
    Map<Map<String, String>, JsonNode> out = new HashMap<>();
    for (ConsumerRecord<String, String> record : offsetsTopic) {
      JsonNode key = tree(record.key());
      if (!key.get(0).asText().equals(connector) || !key.get(1).isObject()) {
        // another connector's, or the null partition of an entry that carries no position
        continue;
      }
      Map<String, String> partition =
          EntryRecords.partition(
              key.get(1).get(EntryRecords.ORG).asText(), key.get(1).get(EntryRecords.KEY).asText());
      if (record.value() == null) {
        out.remove(partition);
      } else {
        out.put(partition, tree(tree(record.value()).get(EntryRecords.TOKEN).asText()));
      }
    }
    return out;
  }

  /**
   * Whether {@code row} lies after the position {@code committed} holds for its partition, so that
   * a task resuming from it reads the row again: an EventLogFile row of an hour at or after the
   * cursor's {@code covered_until} (every row, before the type's first file); an event object's row
   * not older than the cursor's {@code last_ts} and not among its {@code ids}.
   */
  static boolean inUncommittedTail(Row row, Map<Map<String, String>, JsonNode> committed) {
    JsonNode token = committed.get(row.partition());
    if (token == null) {
      return true; // nothing committed: the whole partition is read again
    }
    if (row.partition().get(EntryRecords.KEY).startsWith("eventlogfile:")) {
      JsonNode covered = token.get("covered_until");
      // no covered_until: the cursor of the lookback, before the type's first file
      return covered == null || !row.time().isBefore(Instant.parse(covered.asText()));
    }
    Instant watermark = OffsetDateTime.parse(token.get("last_ts").asText(), SALESFORCE).toInstant();
    Set<String> seen = new HashSet<>();
    token.get("ids").forEach(id -> seen.add(id.asText()));
    return !row.time().isBefore(watermark) && !row.id().map(seen::contains).orElse(false);
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
