package io.sf2loki.source.eventlogfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.shape.EventTimes;
import java.time.Instant;
import java.util.Optional;

/**
 * One listed {@code EventLogFile} record.
 *
 * @param id the record id (validated)
 * @param eventType the type (falls back to the requested one)
 * @param interval the interval (falls back to the requested one)
 * @param createdRaw CreatedDate as Salesforce sent it (what the checkpoint stores)
 * @param created CreatedDate parsed
 * @param length LogFileLength coerced to an integer (0 when missing)
 * @param sequence Sequence coerced to an integer (0 when missing)
 */
record ElfFile(
    String id,
    String eventType,
    String interval,
    String createdRaw,
    Instant created,
    long length,
    long sequence) {

  /** Reads a listing record; empty when its Id or CreatedDate is unusable. */
  static Optional<ElfFile> of(ObjectNode r, String requestedType, String requestedInterval) {
    String id = r.path("Id").asText("");
    String createdRaw = r.path("CreatedDate").asText("");
    Optional<Instant> created = EventTimes.parse(createdRaw);
    if (!Soql.isRecordId(id) || created.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ElfFile(
            id,
            text(r.path("EventType")).orElse(requestedType),
            text(r.path("Interval")).orElse(requestedInterval),
            createdRaw,
            created.get(),
            integer(r.path("LogFileLength")),
            integer(r.path("Sequence"))));
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
