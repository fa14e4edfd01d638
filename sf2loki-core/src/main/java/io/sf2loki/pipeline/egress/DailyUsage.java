package io.sf2loki.pipeline.egress;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * The bytes pushed on one UTC date, as kept in the checkpoint document under {@link #KEY} in the
 * Python original's format: {@code {"date": "YYYY-MM-DD", "bytes": N}}.
 *
 * @param date the UTC date
 * @param bytes line bytes pushed on it
 */
public record DailyUsage(LocalDate date, long bytes) {

  /** The checkpoint key of the day's use. */
  public static final String KEY = "egress:budget";

  private static final ObjectMapper JSON = new ObjectMapper();

  public DailyUsage {
    Objects.requireNonNull(date, "date");
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: " + bytes);
    }
  }

  /**
   * Parses a stored value.
   *
   * @throws IllegalArgumentException naming what is wrong with {@code value}
   */
  public static DailyUsage parse(String value) {
    JsonNode node;
    try {
      node = JSON.readTree(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
    if (node == null
        || !node.isObject()
        || !node.path("date").isTextual()
        || !node.path("bytes").canConvertToExactIntegral()
        || node.path("bytes").asLong() < 0) {
      throw new IllegalArgumentException(
          "expected {\"date\": \"YYYY-MM-DD\", \"bytes\": N} with N >= 0");
    }
    try {
      return new DailyUsage(LocalDate.parse(node.get("date").asText()), node.get("bytes").asLong());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("date is not YYYY-MM-DD: " + node.get("date"), e);
    }
  }

  /** The stored form. */
  public String toJson() {
    return "{\"date\":\"" + date + "\",\"bytes\":" + bytes + "}";
  }
}
