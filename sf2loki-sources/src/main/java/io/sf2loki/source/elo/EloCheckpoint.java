package io.sf2loki.source.elo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.shape.CanonicalJson;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;

/**
 * The resume position of one Event Log Object: every row with {@code Timestamp} before {@code from}
 * was handed on, none at or after it. Stored as {@code {"from": "2026-06-30T10:00:00.001Z", "v":
 * 1}} (keys sorted); {@code from} always has millisecond precision, the granularity of {@code
 * Timestamp}. No row identity is needed: the reader never stops inside a millisecond.
 *
 * @param from the first millisecond not yet read
 */
public record EloCheckpoint(Instant from) {

  private static final ObjectMapper JSON = new ObjectMapper();

  public EloCheckpoint {
    Objects.requireNonNull(from, "from");
    if (!from.truncatedTo(ChronoUnit.MILLIS).equals(from)) {
      throw new IllegalArgumentException("from must be whole milliseconds: " + from);
    }
  }

  /**
   * Reads a stored token.
   *
   * @throws IllegalArgumentException when it is not one (a corrupt checkpoint)
   */
  public static EloCheckpoint decode(String token) {
    JsonNode node;
    try {
      node = JSON.readTree(token);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + token, e);
    }
    if (node == null || node.path("v").asInt() != 1 || !node.path("from").isTextual()) {
      throw new IllegalArgumentException("needs v=1 and a string from: " + token);
    }
    try {
      return new EloCheckpoint(Instant.parse(node.path("from").asText()));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("from is not an ISO-8601 instant: " + token, e);
    }
  }

  /** The stored form. */
  public String encode() {
    return CanonicalJson.write(Map.of("from", Soql.datetimeLiteral(from), "v", 1));
  }
}
