package io.sf2loki.shape;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The fields every source shapes the same way whatever the configuration, because a security team
 * queries them across sources: the request id ({@code REQUEST_ID} of EventLogFile, {@code
 * RequestIdentifier} of objects and Real-Time Event Monitoring events) as structured metadata
 * {@code request_id}, and {@code trace_id} when it is an OpenTelemetry trace id; the threat
 * detection {@code Score} as {@code score} with its {@code severity} tier; {@code AnomalySubType}
 * as {@code anomaly_sub_type}; and {@code SecurityEventData} (a JSON string) as a nested object in
 * the line.
 */
public final class WellKnownFields {

  /** The request id columns and fields, in the order tried. */
  static final List<String> REQUEST_ID_FIELDS = List.of("REQUEST_ID", "RequestIdentifier");

  /** The threat detection events' JSON-string field of top contributing features. */
  public static final String SECURITY_EVENT_DATA = "SecurityEventData";

  // A W3C / OpenTelemetry trace id: 16 bytes as 32 lower-case hex digits, not all zeros (invalid).
  private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{32}");
  private static final String ZERO_TRACE = "0".repeat(32);
  private static final ObjectMapper JSON = new ObjectMapper();

  private WellKnownFields() {}

  /** Adds {@code request_id}, {@code trace_id}, {@code score}, {@code severity} and the subtype. */
  static void addMetadata(Map<String, Object> payload, Map<String, String> metadata) {
    for (String field : REQUEST_ID_FIELDS) {
      String id = Payloads.text(payload, field).trim();
      if (!id.isEmpty()) {
        metadata.put("request_id", id);
        if (isTraceId(id)) {
          metadata.put("trace_id", id);
        }
        break;
      }
    }
    score(payload.get("Score"))
        .ifPresent(
            s -> {
              metadata.put("score", CanonicalJson.stringForm(payload.get("Score")).trim());
              metadata.put("severity", severity(s));
            });
    String subType = Payloads.text(payload, "AnomalySubType").trim();
    if (!subType.isEmpty()) {
      metadata.put("anomaly_sub_type", subType);
    }
  }

  /** True for a valid OpenTelemetry trace id: 32 lower-case hex digits, not all zeros. */
  public static boolean isTraceId(String id) {
    return TRACE_ID.matcher(id).matches() && !ZERO_TRACE.equals(id);
  }

  /**
   * The severity tier of a threat detection score (0–100): ≥80 {@code critical}, ≥60 {@code high},
   * ≥40 {@code medium}, ≥20 {@code low}, else {@code info}.
   */
  public static String severity(BigDecimal score) {
    if (score.compareTo(BigDecimal.valueOf(80)) >= 0) {
      return "critical";
    }
    if (score.compareTo(BigDecimal.valueOf(60)) >= 0) {
      return "high";
    }
    if (score.compareTo(BigDecimal.valueOf(40)) >= 0) {
      return "medium";
    }
    return score.compareTo(BigDecimal.valueOf(20)) >= 0 ? "low" : "info";
  }

  private static Optional<BigDecimal> score(Object v) {
    if (v == null) {
      return Optional.empty();
    }
    try {
      String text = CanonicalJson.stringForm(v).trim().toLowerCase(Locale.ROOT);
      return text.isEmpty() ? Optional.empty() : Optional.of(new BigDecimal(text));
    } catch (NumberFormatException e) {
      return Optional.empty(); // not a number: no score, the field stays in the line as it is
    }
  }

  /** What {@link #expandSecurityEventData} did. */
  enum Expansion {
    ABSENT,
    PARSED,
    UNPARSED
  }

  /**
   * Replaces a {@code SecurityEventData} string that parses as a JSON object or array by that
   * value, so the line nests it and LogQL's {@code | json} reaches its members; one that does not
   * parse stays the raw string.
   */
  static Expansion expandSecurityEventData(Map<String, Object> payload) {
    if (!(payload.get(SECURITY_EVENT_DATA) instanceof String text) || text.isBlank()) {
      return Expansion.ABSENT;
    }
    try {
      JsonNode node = JSON.readTree(text);
      if (node == null || !(node.isObject() || node.isArray())) {
        return Expansion.UNPARSED;
      }
      // Payloads converts an object's members; an array goes through a one-member wrapper.
      Object nested =
          node.isObject()
              ? Payloads.fromJson(node)
              : Payloads.fromJson(JSON.createObjectNode().set("v", node)).get("v");
      payload.put(SECURITY_EVENT_DATA, nested);
      return Expansion.PARSED;
    } catch (JsonProcessingException e) {
      return Expansion.UNPARSED;
    }
  }
}
