package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.otlp.OtlpSinkConfig.Encoding;
import io.sf2loki.testkit.otlp.FakeOtlpLogs;
import io.sf2loki.testkit.otlp.LokiOtlpRules;
import io.sf2loki.testkit.otlp.ReceivedLogRecord;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What an entry becomes on the wire, read back by a receiver using the official classes. */
class OtlpSinkMappingTest {

  static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  static final Instant NOW = Instant.parse("2026-12-07T01:00:00.123456789Z");
  static final long EVENT = 1_796_000_000_000_000_007L;

  FakeOtlpLogs otlp;

  @AfterEach
  void stop() {
    otlp.close();
  }

  static LogEntry entry(Map<String, String> labels, Map<String, String> metadata) {
    return LogEntry.of(EVENT, labels, "{\"EVENT_TYPE\":\"Login\"}", metadata, Optional.empty());
  }

  List<ReceivedLogRecord> export(Encoding encoding, boolean gzip, LogEntry... entries)
      throws Exception {
    otlp =
        FakeOtlpLogs.builder()
            .rules(LokiOtlpRules.promoting(Set.of("event_type", "source")))
            .start();
    OtlpSinkConfig config =
        OtlpConfigs.to(otlp.uri().resolve("/otlp"))
            .encoding(encoding, gzip)
            .namespace("fallback-org")
            .environment("prod")
            .build();
    try (OtlpSink sink =
        new OtlpSink(config, new SimpleMeterRegistry(), Clock.fixed(NOW, ZoneOffset.UTC))) {
      sink.push(new Batch(List.of(entries)));
    }
    return otlp.records();
  }

  @ParameterizedTest(name = "{0}, gzip {1}")
  @CsvSource({"PROTOBUF, true", "PROTOBUF, false", "JSON, true", "JSON, false"})
  void everyFieldOfTheMappingArrives(Encoding encoding, boolean gzip) throws Exception {
    LogEntry e =
        entry(
            Map.of(
                "job", "sf2loki", "source", "eventlogfile", "event_type", "Login", "org", "acme"),
            Map.of("level", "warn", "USER_ID", "005x", "request_id", TRACE));

    List<ReceivedLogRecord> records = export(encoding, gzip, e);

    assertThat(records)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.resource())
                  .containsExactlyInAnyOrderEntriesOf(
                      Map.of(
                          "service.name", "salesforce",
                          "service.namespace", "acme",
                          "deployment.environment.name", "prod"));
              assertThat(r.scope()).isEqualTo("sf2loki");
              assertThat(r.attributes())
                  .containsExactlyInAnyOrderEntriesOf(
                      Map.of(
                          "job", "sf2loki",
                          "source", "eventlogfile",
                          "event_type", "Login",
                          "USER_ID", "005x",
                          "request_id", TRACE));
              assertThat(r.body()).isEqualTo("{\"EVENT_TYPE\":\"Login\"}");
              assertThat(r.timeUnixNano()).isEqualTo(EVENT);
              assertThat(r.observedTimeUnixNano()).isEqualTo(OtlpSink.nanos(NOW));
              assertThat(r.severityNumber()).isEqualTo(13);
              assertThat(r.severityText()).isEqualTo("warn");
              assertThat(r.traceId()).contains(TRACE);
              assertThat(r.lokiLabels())
                  .containsExactlyInAnyOrderEntriesOf(
                      Map.of(
                          "service_name", "salesforce",
                          "service_namespace", "acme",
                          "deployment_environment_name", "prod",
                          "source", "eventlogfile",
                          "event_type", "Login"));
            });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"PROTOBUF", "JSON"})
  void labelsAbsentFromAnEntryComeFromTheConfiguredResource(Encoding encoding) throws Exception {
    LogEntry e =
        entry(
            Map.of("source", "eventlogfile", "event_type", "API", "service_name", "sf-prod"),
            Map.of());

    ReceivedLogRecord r = export(encoding, true, e).get(0);

    assertThat(r.resource())
        .containsEntry("service.name", "sf-prod")
        .containsEntry("service.namespace", "fallback-org");
    assertThat(r.attributes()).doesNotContainKey("service_name");
    assertThat(r.severityNumber()).isZero();
    assertThat(r.severityText()).isEmpty();
  }

  @ParameterizedTest(name = "request_id {0}")
  @CsvSource({
    "00000000000000000000000000000000",
    "4bf92f3577b34da6a3ce929d0e0e473",
    "4exLFFQZ1234abcd4exLFFQZ1234abcd",
    "TID:1234"
  })
  void aRequestIdThatIsNoTraceIdIsKeptOnlyAsAnAttribute(String requestId) throws Exception {
    LogEntry e = entry(Map.of("source", "s"), Map.of("REQUEST_ID", requestId));

    ReceivedLogRecord r = export(Encoding.PROTOBUF, true, e).get(0);

    assertThat(r.traceId()).isEmpty();
    assertThat(r.attributes()).containsEntry("REQUEST_ID", requestId);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"PROTOBUF", "JSON"})
  void entriesOfTwoOrgsGoToTwoResources(Encoding encoding) throws Exception {
    List<ReceivedLogRecord> records =
        export(
            encoding,
            false,
            entry(Map.of("org", "a", "source", "s"), Map.of()),
            entry(Map.of("org", "b", "source", "s"), Map.of()),
            entry(Map.of("org", "a", "source", "s"), Map.of()));

    assertThat(records)
        .extracting(r -> r.resource().get("service.namespace"))
        .containsExactly("a", "a", "b");
  }
}
