package io.sf2loki.source.eventlogfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.shape.EventTimes;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One listed {@code EventLogFile} record.
 *
 * @param id the record id (validated)
 * @param eventType the type (validated as an identifier)
 * @param interval the interval (falls back to the requested one)
 * @param createdRaw CreatedDate as Salesforce sent it (what the checkpoint stores)
 * @param created CreatedDate parsed
 * @param length LogFileLength coerced to an integer (0 when missing)
 * @param sequence Sequence coerced to an integer (0 when missing)
 * @param fieldNames {@code LogFileFieldNames} split at commas (empty when not listed)
 * @param fieldTypes {@code LogFileFieldTypes} split at commas (empty when not listed)
 * @param logDate the start of the hour or day the file covers, when listed
 */
record ElfFile(
    String id,
    String eventType,
    String interval,
    String createdRaw,
    Instant created,
    long length,
    long sequence,
    List<String> fieldNames,
    List<String> fieldTypes,
    Optional<Instant> logDate) {

  ElfFile {
    fieldNames = List.copyOf(fieldNames);
    fieldTypes = List.copyOf(fieldTypes);
  }

  /** The end of the hour or day the file covers: its events are all before it. */
  Optional<Instant> coveredEnd() {
    Duration span = interval.equals("Daily") ? Duration.ofDays(1) : Duration.ofHours(1);
    return logDate.map(d -> d.plus(span));
  }

  /**
   * Reads a listing record; empty when its Id, EventType or CreatedDate is unusable (a type that is
   * not an identifier can never be put into a query or a checkpoint key).
   */
  static Optional<ElfFile> of(ObjectNode r, String requestedInterval) {
    String id = r.path("Id").asText("");
    String createdRaw = r.path("CreatedDate").asText("");
    Optional<Instant> created = EventTimes.parse(createdRaw);
    Optional<String> type = text(r.path("EventType")).filter(Soql::isIdentifier);
    if (!Soql.isRecordId(id) || created.isEmpty() || type.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ElfFile(
            id,
            type.get(),
            text(r.path("Interval")).orElse(requestedInterval),
            createdRaw,
            created.get(),
            integer(r.path("LogFileLength")),
            integer(r.path("Sequence")),
            list(r.path("LogFileFieldNames")),
            list(r.path("LogFileFieldTypes")),
            text(r.path("LogDate")).flatMap(EventTimes::parse)));
  }

  private static List<String> list(JsonNode n) {
    return text(n)
        .map(v -> Arrays.stream(v.split(",", -1)).map(String::strip).toList())
        .orElse(List.of());
  }

  private static Optional<String> text(JsonNode n) {
    return n.isTextual() && !n.asText().isBlank() ? Optional.of(n.asText()) : Optional.empty();
  }

  /** {@code 1234}, {@code 1234.0} and {@code "1234"} are all 1234; anything else is 0. */
  private static long integer(JsonNode n) {
    if (n.isNumber()) {
      return n.asLong();
    }
    if (n.isTextual()) {
      try {
        return (long) Double.parseDouble(n.asText());
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    return 0;
  }
}
