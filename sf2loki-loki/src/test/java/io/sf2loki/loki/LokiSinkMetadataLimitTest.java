package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.LokiVersion;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Structured metadata over Loki 3's per-line limits would get the line refused (400) and dropped:
 * the sink keeps it within them, moves the rest into the line and counts it.
 */
class LokiSinkMetadataLimitTest {

  final FakeLoki loki = start();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final long now = Instant.now().truncatedTo(ChronoUnit.SECONDS).getEpochSecond() * 1_000_000_000L;

  static FakeLoki start() {
    try {
      return FakeLoki.builder().version(LokiVersion.V3).start();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @AfterEach
  void close() {
    loki.close();
  }

  LogEntry entry(Map<String, String> metadata) {
    return LogEntry.of(
        now,
        Map.of("job", "sf2loki", "source", "eventlogfile", "event_type", "Login"),
        "{\"EVENT_TYPE\": \"Login\"}",
        metadata,
        Optional.empty());
  }

  AcceptedEntry pushOne(LogEntry e) throws Exception {
    try (LokiSink sink =
        LokiSink.builder(LokiConfigs.to(loki.baseUri()).build(), registry, Clock.systemUTC())
            .build()) {
      sink.push(new Batch(List.of(e)));
    }
    assertThat(loki.entries()).hasSize(1);
    return loki.entries().get(0);
  }

  double trimmed(String reason) {
    return registry
        .counter("sf2loki_structured_metadata_trimmed", "reason", reason, "source", "eventlogfile")
        .count();
  }

  /** Every pair, from the stored metadata and the line's overflow object. */
  static Map<String, String> everyPair(AcceptedEntry stored) throws Exception {
    Map<String, String> all = new HashMap<>(stored.metadata());
    JsonNode overflow =
        new ObjectMapper().readTree(stored.line()).get("structured_metadata_overflow");
    overflow.properties().forEach(f -> all.put(f.getKey(), f.getValue().asText()));
    return all;
  }

  @Test
  void aLineWith129MetadataPairsIsStoredWithTheOverflowInItsLine() throws Exception {
    Map<String, String> metadata = new TreeMap<>();
    for (int i = 0; i < 128; i++) {
      metadata.put(String.format("k%03d", i), "v" + i);
    }
    metadata.put("level", "warn"); // 129 pairs

    AcceptedEntry stored = pushOne(entry(metadata));

    // Loki 3 stored it (204) and added detected_level: still within its 128.
    assertThat(stored.metadata()).hasSizeLessThanOrEqualTo(128).containsEntry("level", "warn");
    Map<String, String> all = everyPair(stored);
    all.remove("detected_level");
    assertThat(all).isEqualTo(metadata); // nothing lost
    assertThat(trimmed("too_many")).isEqualTo(1);
  }

  @Test
  void metadataOverSixtyFourKilobytesMovesTheLargePairsIntoTheLine() throws Exception {
    Map<String, String> metadata = Map.of("level", "info", "big", "x".repeat(70 * 1024));

    AcceptedEntry stored = pushOne(entry(metadata));

    assertThat(stored.metadata()).doesNotContainKey("big").containsEntry("level", "info");
    assertThat(everyPair(stored)).containsEntry("big", "x".repeat(70 * 1024));
    assertThat(trimmed("too_large")).isEqualTo(1);
  }

  @Test
  void metadataWithinTheLimitsIsLeftAlone() throws Exception {
    AcceptedEntry stored = pushOne(entry(Map.of("level", "info", "USER_ID", "005")));

    assertThat(stored.line()).isEqualTo("{\"EVENT_TYPE\": \"Login\"}");
    assertThat(stored.metadata()).containsEntry("USER_ID", "005");
    assertThat(registry.find("sf2loki_structured_metadata_trimmed").counter()).isNull();
  }

  @Test
  void aLineThatIsNotAJsonObjectGetsTheOverflowAppended() {
    assertThat(MetadataLimit.withOverflow("raw apex text", Map.of("a", "1")))
        .isEqualTo("raw apex text {\"structured_metadata_overflow\": {\"a\": \"1\"}}");
    assertThat(MetadataLimit.withOverflow("{}", Map.of("a", "1")))
        .isEqualTo("{\"structured_metadata_overflow\": {\"a\": \"1\"}}");
  }
}
