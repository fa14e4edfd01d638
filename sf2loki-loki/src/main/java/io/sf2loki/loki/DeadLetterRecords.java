package io.sf2loki.loki;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.model.LogEntry;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads the records {@link DeadLetterFile} writes back into entries, for {@code deadletter replay}.
 * The format is defined once, there; this is its reader. A replayed entry carries no checkpoint:
 * its source's position moved on when it was dropped ({@link ReplayJournal#track} gives it its
 * record's identity instead).
 */
public final class DeadLetterRecords {

  private static final ObjectMapper JSON = new ObjectMapper();

  private DeadLetterRecords() {}

  /** Why a dead-letter line cannot be replayed (not JSON, a field missing or of the wrong type). */
  public static final class MalformedRecordException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedRecordException(String message) {
      super(message);
    }
  }

  /**
   * The entry of one dead-letter line.
   *
   * @throws MalformedRecordException when the line is not such a record
   */
  public static LogEntry parse(String line) throws MalformedRecordException {
    JsonNode record;
    try {
      record = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new MalformedRecordException("not JSON: " + e.getOriginalMessage());
    }
    if (record == null || !record.isObject()) {
      throw new MalformedRecordException("not a JSON object");
    }
    long timestamp;
    try {
      timestamp = Long.parseLong(text(record, "timestamp"));
    } catch (NumberFormatException e) {
      throw new MalformedRecordException("timestamp is not nanoseconds since the epoch");
    }
    if (timestamp < 0) {
      throw new MalformedRecordException("timestamp is negative");
    }
    return LogEntry.of(
        timestamp,
        strings(record, "labels"),
        text(record, "line"),
        strings(record, "structured_metadata"),
        Optional.empty());
  }

  private static String text(JsonNode record, String field) throws MalformedRecordException {
    JsonNode value = record.get(field);
    if (value == null || !value.isTextual()) {
      throw new MalformedRecordException(field + " is missing or not a string");
    }
    return value.asText();
  }

  private static Map<String, String> strings(JsonNode record, String field)
      throws MalformedRecordException {
    JsonNode value = record.get(field);
    if (value == null || !value.isObject()) {
      throw new MalformedRecordException(field + " is missing or not an object");
    }
    Map<String, String> strings = new TreeMap<>();
    for (Map.Entry<String, JsonNode> member : value.properties()) {
      if (!member.getValue().isTextual()) {
        throw new MalformedRecordException(field + "." + member.getKey() + " is not a string");
      }
      strings.put(member.getKey(), member.getValue().asText());
    }
    return strings;
  }
}
