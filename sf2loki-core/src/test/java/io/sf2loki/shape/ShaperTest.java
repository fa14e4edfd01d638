package io.sf2loki.shape;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ShaperTest {

  static final Instant NOW = Instant.parse("2026-06-30T12:00:00Z");
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  final Shaper.SampleKey byId = (original, transformed) -> String.valueOf(original.get("Id"));

  Shaper shaper(String section) {
    ConfigReader root = ConfigReader.of(ConfigFactory.parseString(section).resolve());
    ShapingConfig config = ShapingConfig.bind(root.section("sources.eventlog_objects"));
    root.throwIfInvalid();
    return new Shaper(
        "eventlog_objects",
        config,
        Map.of("job", "sf2loki", "source", "spoofed"),
        Clock.fixed(NOW, ZoneOffset.UTC),
        metrics);
  }

  static Map<String, Object> login(String id, Object eventDate) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("Id", id);
    r.put("EventDate", eventDate);
    r.put("UserId", "005000000000001AAA");
    r.put("LoginType", "Application");
    r.put("Status", "Success");
    return r;
  }

  @Test
  void keptRecordsGetCanonicalLinesMetadataLevelAndIdentityLabels() {
    Shaper s =
        shaper(
            "sources.eventlog_objects { max_label_values = 10, structured_metadata_fields ="
                + " [UserId, Missing], transforms = [{action = drop_field, fields = [LoginType]}] }");
    Map<String, Object> original = login("0Yw000000000001AAA", "2026-06-30T01:00:00.000+0000");
    TypeShaping type = TypeShaping.of("LoginEvent");

    Shaped.Kept kept =
        (Shaped.Kept) s.shape(type, original, byId, List.of("EventDate"), Optional.empty());
    LogEntry entry =
        kept.entry(Optional.of(new CheckpointToken("eventlog_objects:LoginEvent", "v")));

    assertThat(entry.line())
        .isEqualTo(
            "{\"EventDate\": \"2026-06-30T01:00:00.000+0000\", \"Id\": \"0Yw000000000001AAA\","
                + " \"Status\": \"Success\", \"UserId\": \"005000000000001AAA\"}");
    assertThat(entry.metadata()).isEqualTo(Map.of("UserId", "005000000000001AAA", "level", "info"));
    assertThat(entry.labels())
        .isEqualTo(
            Map.of("job", "sf2loki", "source", "eventlog_objects", "event_type", "LoginEvent"));
    assertThat(entry.timestampNanos())
        .isEqualTo(Instant.parse("2026-06-30T01:00:00Z").toEpochMilli() * 1_000_000L);
    assertThat(original).containsKey("LoginType"); // the cursor reads the original values
  }

  @Test
  void securityEventDataIsNestedInTheLineWhileTheCallersRecordKeepsItsString() {
    // No transforms: the record is copied only because the expansion rewrites it.
    Shaper s = shaper("sources.eventlog_objects { max_label_values = 10 }");
    Map<String, Object> original = login("0Yw000000000001AAA", "2026-06-30T01:00:00.000Z");
    original.put("SecurityEventData", "{\"score\": 1}");

    Shaped.Kept kept =
        (Shaped.Kept)
            s.shape(
                TypeShaping.of("LoginEvent"),
                original,
                byId,
                List.of("EventDate"),
                Optional.empty());

    assertThat(kept.entry(Optional.empty()).line())
        .contains("\"SecurityEventData\": {\"score\": 1}");
    assertThat(original).containsEntry("SecurityEventData", "{\"score\": 1}");
  }

  @Test
  void aRecordWithoutItsPromotedLabelGetsTheIdentityLabelsAndOneWithItKeepsIt() {
    Shaper s = shaper("sources.eventlog_objects { max_label_values = 10 }");
    TypeShaping type = new TypeShaping("LoginEvent", Optional.empty(), List.of("Status"), 1.0);
    Map<String, Object> without = login("0Yw000000000001AAA", "x");
    without.remove("Status");

    StringMap first = s.labels(type, without);
    StringMap promoted = s.labels(type, login("0Yw000000000002AAA", "x"));
    StringMap again = s.labels(type, without);

    Map<String, String> identity =
        Map.of("job", "sf2loki", "source", "eventlog_objects", "event_type", "LoginEvent");
    assertThat(first).isEqualTo(identity);
    assertThat(again).isSameAs(first);
    assertThat(promoted)
        .isEqualTo(
            Map.of(
                "job", "sf2loki",
                "source", "eventlog_objects",
                "event_type", "LoginEvent",
                "Status", "Success"));
  }

  @Test
  void perTypeMetadataOverrideReplacesAndEmptySuppresses() {
    Shaper s =
        shaper(
            "sources.eventlog_objects { max_label_values = 10, structured_metadata_fields = [UserId] }");
    Map<String, Object> r = login("0Yw000000000001AAA", "2026-06-30T01:00:00.000Z");
    r.put("Status", "Failed");
    TypeShaping suppress = new TypeShaping("LoginEvent", Optional.of(List.of()), List.of(), 1.0);
    assertThat(s.metadata(suppress, r)).isEqualTo(Map.of("level", "warn"));
    TypeShaping other = new TypeShaping("LoginEvent", Optional.of(List.of("Id")), List.of(), 1.0);
    assertThat(s.metadata(other, r)).isEqualTo(Map.of("Id", "0Yw000000000001AAA", "level", "warn"));
  }

  @Test
  void dropRowAndSamplingAreCountedAndShipNothing() {
    Shaper s =
        shaper(
            "sources.eventlog_objects { max_label_values = 10, transforms = [{name = no-apps,"
                + " action = drop_row, match = {LoginType = \"App*\"}}] }");
    Shaped dropped =
        s.shape(
            TypeShaping.of("LoginEvent"),
            login("0Yw000000000001AAA", "x"),
            byId,
            List.of(),
            Optional.empty());
    assertThat(dropped).isEqualTo(new Shaped.Dropped("no-apps"));
    assertThat(
            metrics
                .counter("sf2loki_rows_filtered", "source", "eventlog_objects", "rule", "no-apps")
                .count())
        .isEqualTo(1);

    Shaper plain = shaper("sources.eventlog_objects { max_label_values = 10 }");
    TypeShaping half = new TypeShaping("ApiEvent", Optional.empty(), List.of(), 0.5);
    // bucket of 0Yw000000000001AAA is 6929 (see SamplerTest): out at 0.5
    assertThat(
            plain.shape(half, login("0Yw000000000001AAA", "x"), byId, List.of(), Optional.empty()))
        .isInstanceOf(Shaped.SampledOut.class);
    assertThat(
            metrics
                .counter(
                    "sf2loki_entries_sampled_out",
                    "source",
                    "eventlog_objects",
                    "event_type",
                    "ApiEvent")
                .count())
        .isEqualTo(1);
  }

  @Test
  void timestampFallsBackToTheGivenTimeClampsOldOnesAndCountsEachFallback() {
    Shaper s = shaper("sources.eventlog_objects { max_label_values = 10 }");
    Map<String, Object> r = login("0Yw000000000001AAA", "garbage");
    r.put("CreatedDate", 1782781200000L);
    assertThat(s.eventTime(r, List.of("EventDate", "CreatedDate"), Optional.empty()))
        .isEqualTo(Instant.ofEpochMilli(1782781200000L));

    Instant recent = NOW.minusSeconds(600);
    assertThat(s.eventTime(r, List.of("EventDate"), Optional.of(recent))).isEqualTo(recent);
    assertThat(s.eventTime(r, List.of("EventDate"), Optional.of(NOW.minusSeconds(7200))))
        .isEqualTo(NOW.minusSeconds(300));
    assertThat(s.eventTime(r, List.of("EventDate"), Optional.empty())).isEqualTo(NOW);
    assertThat(metrics.counter("sf2loki_timestamp_fallbacks", "source", "eventlog_objects").count())
        .isEqualTo(3);
  }

  @Test
  void transformingTheTimestampFieldAwayTriggersTheFallback() {
    Shaper s =
        shaper(
            "sources.eventlog_objects { max_label_values = 10, transforms = [{action = drop_field,"
                + " fields = [EventDate]}] }");
    Shaped.Kept kept =
        (Shaped.Kept)
            s.shape(
                TypeShaping.of("LoginEvent"),
                login("0Yw000000000001AAA", "2026-06-30T01:00:00.000Z"),
                byId,
                List.of("EventDate"),
                Optional.of(NOW.minusSeconds(60)));
    assertThat(kept.timestamp()).isEqualTo(NOW.minusSeconds(60));
  }

  @Test
  void labelGuardStopsPromotingNewValuesBeyondTheBound() {
    Shaper s = shaper("sources.eventlog_objects { max_label_values = 2 }");
    TypeShaping type = new TypeShaping("LoginEvent", Optional.empty(), List.of("LoginType"), 1.0);
    for (String v : List.of("A", "B", "A", "C", "D")) {
      Map<String, Object> r = login("0Yw000000000001AAA", "x");
      r.put("LoginType", v);
      Map<String, String> labels = s.labels(type, r);
      assertThat(labels.containsKey("LoginType")).isEqualTo(!v.equals("C") && !v.equals("D"));
    }
    assertThat(
            metrics
                .counter(
                    "sf2loki_label_values_capped",
                    "source",
                    "eventlog_objects",
                    "label",
                    "LoginType")
                .count())
        .isEqualTo(2);
  }

  @Test
  void promotedLabelsAreValidatedWithClearMessages() {
    ConfigReader root =
        ConfigReader.of(
            ConfigFactory.parseString(
                    "sources.eventlog_objects { max_label_values = 10, transforms = [{action ="
                        + " drop_field, fields = [SourceIp]}] }")
                .resolve());
    ConfigReader section = root.section("sources.eventlog_objects");
    ShapingConfig config = ShapingConfig.bind(section);
    config.checkLabels(
        section, "labels", "LoginEvent", List.of("LoginType", "source", "Bad-Name", "SourceIp"));
    assertThat(root.problems())
        .extracting(ConfigProblem::message)
        .containsExactlyInAnyOrder(
            "sources.eventlog_objects.labels: 'source' is reserved and cannot be promoted",
            "sources.eventlog_objects.labels: 'Bad-Name' is not a valid label name"
                + " ([A-Za-z_][A-Za-z0-9_]*)",
            "sources.eventlog_objects.labels: 'SourceIp' is removed by a drop_field transform and"
                + " cannot be a label");
  }

  @Test
  void levelRulesFollowTheirPrecedence() {
    assertThat(Levels.of(Map.of("ERROR_CODE", "E1", "STATUS_CODE", "200"))).isEqualTo("error");
    assertThat(Levels.of(Map.of("ERROR_CODE", "n/a", "STATUS_CODE", "404"))).isEqualTo("warn");
    assertThat(Levels.of(Map.of("STATUS_CODE", "503"))).isEqualTo("error");
    assertThat(Levels.of(Map.of("STATUS_CODE", "abc", "REQUEST_STATUS", "S"))).isEqualTo("info");
    assertThat(Levels.of(Map.of("LOGIN_STATUS", "LOGIN_ERROR_INVALID_PASSWORD"))).isEqualTo("warn");
    assertThat(Levels.of(Map.of("Status", "Assertion Failed"))).isEqualTo("warn");
    assertThat(Levels.of(Map.of())).isEqualTo("info");
  }
}
