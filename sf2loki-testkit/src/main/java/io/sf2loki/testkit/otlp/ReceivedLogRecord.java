package io.sf2loki.testkit.otlp;

import java.util.Map;
import java.util.Optional;

/**
 * One log record of an accepted export, as decoded with the official {@code opentelemetry-proto}
 * classes, and what Loki's OTLP endpoint would make of it ({@link LokiOtlpRules}).
 *
 * @param resource the resource attributes, values as strings
 * @param scope the instrumentation scope's name
 * @param attributes the record's attributes, values as strings
 * @param body the body, stringified as Loki does for a non-string body
 * @param timeUnixNano {@code time_unix_nano}
 * @param observedTimeUnixNano {@code observed_time_unix_nano}
 * @param severityNumber {@code severity_number}
 * @param severityText {@code severity_text}
 * @param traceId {@code trace_id} as 32 lower-case hex digits, when set
 * @param lokiLabels the stream labels Loki would index it under
 * @param lokiMetadata the structured metadata Loki would keep with it
 */
public record ReceivedLogRecord(
    Map<String, String> resource,
    String scope,
    Map<String, String> attributes,
    String body,
    long timeUnixNano,
    long observedTimeUnixNano,
    int severityNumber,
    String severityText,
    Optional<String> traceId,
    Map<String, String> lokiLabels,
    Map<String, String> lokiMetadata) {

  /** Copies the maps. */
  public ReceivedLogRecord {
    resource = Map.copyOf(resource);
    attributes = Map.copyOf(attributes);
    lokiLabels = Map.copyOf(lokiLabels);
    lokiMetadata = Map.copyOf(lokiMetadata);
  }
}
