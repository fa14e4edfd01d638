package io.sf2loki.shape;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigReader;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WellKnownFieldsTest {

  static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  Shaper shaper() {
    ConfigReader root =
        ConfigReader.of(
            ConfigFactory.parseString("sources.eventlog_objects { max_label_values = 10 }"));
    ShapingConfig config = ShapingConfig.bind(root.section("sources.eventlog_objects"));
    root.throwIfInvalid();
    return new Shaper(
        "eventlog_objects",
        config,
        Map.of(),
        Clock.fixed(Instant.parse("2026-06-30T12:00:00Z"), ZoneOffset.UTC),
        metrics);
  }

  Map<String, String> metadata(Map<String, Object> fields) {
    return shaper().metadata(TypeShaping.of("X"), fields);
  }

  Shaped.Kept shape(Map<String, Object> fields) {
    return (Shaped.Kept)
        shaper()
            .shape(
                TypeShaping.of("ApiAnomalyEventStore"),
                fields,
                (o, t) -> "k",
                List.of(),
                Optional.empty());
  }

  @Test
  void elfRequestIdIsRequestIdMetadataWithoutConfiguration() {
    assertThat(metadata(Map.of("REQUEST_ID", "4-YGrBuT8ZAb2Pmu7hYv6-")))
        .isEqualTo(Map.of("request_id", "4-YGrBuT8ZAb2Pmu7hYv6-", "level", "info"));
  }

  @Test
  void aTraceIdShapedRequestIdentifierIsAlsoTraceId() {
    assertThat(metadata(Map.of("RequestIdentifier", TRACE)))
        .containsEntry("request_id", TRACE)
        .containsEntry("trace_id", TRACE);
  }

  @Test
  void upperCaseShortAndAllZeroIdsAreNotTraceIds() {
    assertThat(WellKnownFields.isTraceId(TRACE.toUpperCase(java.util.Locale.ROOT))).isFalse();
    assertThat(WellKnownFields.isTraceId(TRACE.substring(1))).isFalse();
    assertThat(WellKnownFields.isTraceId("0".repeat(32))).isFalse();
    assertThat(metadata(Map.of("REQUEST_ID", "0".repeat(32)))).doesNotContainKey("trace_id");
  }

  @Test
  void anEmptyRequestIdAddsNothing() {
    assertThat(metadata(Map.of("REQUEST_ID", " "))).isEqualTo(Map.of("level", "info"));
  }

  @Test
  void scoreIsMetadataWithItsSeverityTier() {
    assertThat(metadata(Map.of("Score", 81.5)))
        .containsEntry("score", "81.5")
        .containsEntry("severity", "critical");
    assertThat(metadata(Map.of("Score", "not a number"))).doesNotContainKeys("score", "severity");
  }

  @Test
  void severityTiersStartAtEightySixtyFortyAndTwenty() {
    assertThat(
            List.of(100, 80, 79.9, 60, 59, 40, 39, 20, 19.99, 0).stream()
                .map(n -> WellKnownFields.severity(new BigDecimal(n.toString())))
                .toList())
        .containsExactly(
            "critical",
            "critical",
            "high",
            "high",
            "medium",
            "medium",
            "low",
            "low",
            "info",
            "info");
  }

  @Test
  void anomalySubTypeIsMetadataSoAQueryCanSelectMcpAnomalies() {
    assertThat(metadata(Map.of("AnomalySubType", "MCPAnomaly")))
        .containsEntry("anomaly_sub_type", "MCPAnomaly");
  }

  @Test
  void securityEventDataThatParsesIsNestedInTheLineAndSummaryStays() {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("Score", 42);
    row.put("Summary", "Unusual API volume");
    row.put("SecurityEventData", "{\"features\": [{\"featureName\": \"rowCount\", \"value\": 9}]}");

    Shaped.Kept kept = shape(row);

    assertThat(kept.line())
        .isEqualTo(
            "{\"Score\": 42, \"SecurityEventData\": {\"features\": [{\"featureName\":"
                + " \"rowCount\", \"value\": 9}]}, \"Summary\": \"Unusual API volume\"}");
    assertThat(kept.metadata()).containsEntry("score", "42").containsEntry("severity", "medium");
    assertThat(row.get("SecurityEventData")).isInstanceOf(String.class); // original untouched
  }

  @Test
  void securityEventDataThatDoesNotParseStaysRawAndIsCounted() {
    Shaped.Kept kept = shape(Map.of("SecurityEventData", "{truncated"));

    assertThat(kept.line()).isEqualTo("{\"SecurityEventData\": \"{truncated\"}");
    assertThat(
            metrics
                .counter("sf2loki_security_event_data_unparsed", "source", "eventlog_objects")
                .count())
        .isEqualTo(1);
  }
}
