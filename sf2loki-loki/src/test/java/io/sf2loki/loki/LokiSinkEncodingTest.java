package io.sf2loki.loki;

import static io.sf2loki.pipeline.Entries.T0;
import static io.sf2loki.pipeline.Entries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.Batch;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.RecordedPush;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LokiSinkEncodingTest {

  final FakeLoki loki = start();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  static FakeLoki start() {
    try {
      return FakeLoki.start();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @AfterEach
  void close() {
    loki.close();
  }

  static final List<LogEntry> MIXED =
      List.of(
          LogEntry.of(
              T0 + 5,
              Map.of("job", "sf2loki", "source", "pubsub", "event_type", "LoginEvent"),
              "{\"a\": \"ünï\\\"code\"}",
              Map.of("UserId", "005x", "level", "warn"),
              Optional.empty()),
          entry("eventlogfile", "Login", 1, "first"),
          entry("eventlogfile", "Login", 0, "earlier"),
          LogEntry.checkpointOnly(new CheckpointToken("pubsub:/event/X", "r1")));

  List<AcceptedEntry> pushWith(LokiConfigs config) throws Exception {
    try (LokiSink sink = LokiSink.builder(config.build(), registry, Clock.systemUTC()).build()) {
      sink.push(new Batch(MIXED));
    }
    return loki.entries();
  }

  @Test
  void protobufAndJsonEncodingsDecodeToIdenticalEntries() throws Exception {
    List<AcceptedEntry> protobuf = pushWith(LokiConfigs.to(loki.baseUri()));
    loki.reset();
    List<AcceptedEntry> json = pushWith(LokiConfigs.to(loki.baseUri()).json(false));
    loki.reset();
    List<AcceptedEntry> gzip = pushWith(LokiConfigs.to(loki.baseUri()).json(true));

    assertThat(protobuf).hasSize(3);
    assertThat(json).isEqualTo(protobuf);
    assertThat(gzip).isEqualTo(protobuf);
    assertThat(protobuf.get(0).metadata()).isEqualTo(Map.of("UserId", "005x", "level", "warn"));
    assertThat(protobuf.get(0).line()).isEqualTo("{\"a\": \"ünï\\\"code\"}");
  }

  @Test
  void entriesAreGroupedByLabelSetInTimestampOrderAndCheckpointOnlyIsNotSent() throws Exception {
    try (LokiSink sink =
        LokiSink.builder(LokiConfigs.to(loki.baseUri()).build(), registry, Clock.systemUTC())
            .build()) {
      sink.push(new Batch(MIXED)); // each stream alone first: Loki confirms them one by one
      sink.push(new Batch(MIXED));
    }

    assertThat(loki.pushes()).hasSize(3);
    RecordedPush push = loki.pushes().get(2);
    assertThat(push.streams()).hasSize(2);
    assertThat(push.streams().get(1).entries())
        .extracting(e -> e.line())
        .containsExactly("earlier", "first");
    assertThat(push.entryCount()).isEqualTo(3);
  }

  @Test
  void protobufIsSentAsSnappyWithUserAgentAndTenant() throws Exception {
    pushWith(LokiConfigs.to(loki.baseUri()));

    RecordedPush push = loki.pushes().get(0);
    assertThat(push.header("content-type")).contains("application/x-protobuf");
    assertThat(push.header("content-encoding")).contains("snappy");
    assertThat(push.header("user-agent"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("sf2loki/"));
    assertThat(push.header("x-scope-orgid")).contains("tenant-1");
    assertThat(push.header("authorization")).isEmpty();
  }

  @Test
  void gzipJsonCarriesItsContentEncoding() throws Exception {
    pushWith(LokiConfigs.to(loki.baseUri()).json(true));

    assertThat(loki.pushes().get(0).header("content-encoding")).contains("gzip");
    assertThat(loki.pushes().get(0).header("content-type")).contains("application/json");
  }

  @Test
  void basicAuthUsesTenantAsUserAndOmitsTheTenantHeader() throws Exception {
    pushWith(LokiConfigs.to(loki.baseUri()).basic("s3cret"));

    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString("tenant-1:s3cret".getBytes(StandardCharsets.UTF_8));
    assertThat(loki.pushes().get(0).header("authorization")).contains(expected);
    assertThat(loki.pushes().get(0).header("x-scope-orgid")).isEmpty();
  }

  @Test
  void bearerWithSendTenantHeaderSendsBoth() throws Exception {
    pushWith(LokiConfigs.to(loki.baseUri()).bearer("tok").sendTenantHeader());

    assertThat(loki.pushes().get(0).header("authorization")).contains("Bearer tok");
    assertThat(loki.pushes().get(0).header("x-scope-orgid")).contains("tenant-1");
  }

  @Test
  void noTenantAndNoTokenSendNoAuthHeaders() throws Exception {
    pushWith(LokiConfigs.to(loki.baseUri()).tenant(null));

    assertThat(loki.pushes().get(0).header("authorization")).isEmpty();
    assertThat(loki.pushes().get(0).header("x-scope-orgid")).isEmpty();
  }

  @Test
  void checkpointOnlyBatchSendsNothing() throws Exception {
    try (LokiSink sink =
        LokiSink.builder(LokiConfigs.to(loki.baseUri()).build(), registry, Clock.systemUTC())
            .build()) {
      sink.push(new Batch(List.of(LogEntry.checkpointOnly(new CheckpointToken("k", "v")))));
    }

    assertThat(loki.pushes()).isEmpty();
  }

  @Test
  void acceptedPushCountsWireBytes() throws Exception {
    pushWith(LokiConfigs.to(loki.baseUri()));

    assertThat(registry.counter("sf2loki_loki_bytes_pushed").count())
        .isEqualTo(loki.pushes().stream().mapToLong(p -> p.bodyBytes()).sum());
  }

  @Test
  void overlongLineIsTruncatedWithAVisibleMarkerAndCounted() throws Exception {
    LogEntry big = entry("eventlogfile", "Login", 0, "é".repeat(400)); // 800 bytes
    try (LokiSink sink =
        LokiSink.builder(
                LokiConfigs.to(loki.baseUri()).maxLineBytes(100).build(),
                registry,
                Clock.systemUTC())
            .build()) {
      sink.push(new Batch(List.of(big)));
    }

    String line = loki.lines().get(0);
    assertThat(line).endsWith("…[truncated, original 800 bytes]");
    assertThat(line.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(100);
    assertThat(registry.counter("sf2loki_lines_truncated", "source", "eventlogfile").count())
        .isEqualTo(1);
  }

  @Test
  void labelOutsideTheAllowlistIsMovedToStructuredMetadata() throws Exception {
    LogEntry e =
        LogEntry.of(
            T0,
            Map.of("source", "apexlog", "event_type", "apexlog", "user_id", "005abc"),
            "line",
            Map.of(),
            Optional.empty());
    try (LokiSink sink =
        LokiSink.builder(LokiConfigs.to(loki.baseUri()).build(), registry, Clock.systemUTC())
            .build()) {
      sink.push(new Batch(List.of(e)));
    }

    AcceptedEntry got = loki.entries().get(0);
    assertThat(got.labels()).doesNotContainKey("user_id");
    assertThat(got.metadata()).containsEntry("user_id", "005abc");
    assertThat(registry.counter("sf2loki_labels_demoted", "label", "user_id").count()).isEqualTo(1);
  }
}
