package io.sf2loki.source.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.source.elo.EloCheckpoint;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;

/**
 * Validates a checkpoint value against its key's namespace, so a repair cannot write a cursor its
 * source would fail to parse: the CLI's {@code state set} and the Kafka Connect connector's {@code
 * alterOffsets} (the REST offsets API). Unknown namespaces need {@code force}.
 */
public final class CheckpointValues {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter SALESFORCE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxx");

  private CheckpointValues() {}

  /**
   * @return a problem description, or empty when the value fits the key's namespace
   */
  public static Optional<String> problem(String key, String value, boolean force) {
    String bare =
        key.startsWith("org=") && key.indexOf(':') > 0 ? key.substring(key.indexOf(':') + 1) : key;
    if (bare.startsWith("pubsub:")) {
      return base64(value);
    }
    if (bare.startsWith("eventlog_objects:") && bare.endsWith("EventLog")) {
      return eventLogObjectToken(value);
    }
    if (bare.startsWith("eventlog_objects:") || bare.equals("apexlog")) {
      return cursor(value, "last_ts");
    }
    if (bare.startsWith("eventlogfile:")) {
      return cursor(value, "last_created");
    }
    if (bare.equals("egress:budget")) {
      return budget(value);
    }
    return force
        ? Optional.empty()
        : Optional.of(
            "'"
                + key
                + "' is not in a known namespace (pubsub:, eventlog_objects:, eventlogfile:,"
                + " apexlog, egress:budget); pass --force to write it anyway");
  }

  private static Optional<String> base64(String value) {
    try {
      Base64.getDecoder().decode(value);
      return value.isEmpty()
          ? Optional.of("a pubsub replay id must not be empty")
          : Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of("a pubsub replay id must be strict base64 (got '" + value + "')");
    }
  }

  private static Optional<String> cursor(String value, String timestampField) {
    if (isTimestamp(value)) {
      return Optional.empty();
    }
    String expected =
        "a JSON object {\"ids\": [...], \""
            + timestampField
            + "\": \"<timestamp>\"} or a bare"
            + " timestamp such as 2026-07-01T00:00:00.000+0000";
    Optional<JsonNode> node = parse(value);
    if (node.isEmpty() || !node.get().isObject()) {
      return Optional.of("value must be " + expected);
    }
    JsonNode ids = node.get().get("ids");
    JsonNode ts = node.get().get(timestampField);
    if (ids == null
        || !ids.isArray()
        || ts == null
        || !ts.isTextual()
        || !isTimestamp(ts.asText())) {
      return Optional.of("value must be " + expected);
    }
    return Optional.empty();
  }

  /** An Event Log Object's token, {@code {"from": "<ISO-8601 instant>", "v": 1}}. */
  private static Optional<String> eventLogObjectToken(String value) {
    try {
      EloCheckpoint.decode(value);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(
          "value must be {\"from\": \"2026-07-01T00:00:00.000Z\", \"v\": 1} for an Event Log"
              + " Object (got '"
              + value
              + "')");
    }
  }

  private static Optional<String> budget(String value) {
    Optional<JsonNode> node = parse(value);
    boolean ok =
        node.isPresent()
            && node.get().path("date").asText("").matches("\\d{4}-\\d{2}-\\d{2}")
            && node.get().path("bytes").canConvertToLong()
            && node.get().path("bytes").asLong(-1) >= 0;
    return ok
        ? Optional.empty()
        : Optional.of("value must be {\"date\": \"YYYY-MM-DD\", \"bytes\": N} with N >= 0");
  }

  private static boolean isTimestamp(String value) {
    try {
      OffsetDateTime.parse(value, SALESFORCE);
      return true;
    } catch (DateTimeParseException e) {
      try {
        OffsetDateTime.parse(value);
        return true;
      } catch (DateTimeParseException e2) {
        return false;
      }
    }
  }

  private static Optional<JsonNode> parse(String value) {
    try {
      return Optional.ofNullable(JSON.readTree(value));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
