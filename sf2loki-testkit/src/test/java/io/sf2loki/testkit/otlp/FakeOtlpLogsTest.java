package io.sf2loki.testkit.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FakeOtlpLogsTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

  private FakeOtlpLogs otlp;

  @AfterEach
  void stop() {
    if (otlp != null) {
      otlp.close();
    }
  }

  @Test
  void keepsEveryRecordWithTheLabelsAndMetadataOfLokisDefaultRules() throws Exception {
    otlp = FakeOtlpLogs.start();

    HttpResponse<byte[]> answer = post(FakeOtlpLogs.LOGS_PATH, gzip(export().toByteArray()), true);

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(ExportLogsServiceResponse.parseFrom(answer.body()).hasPartialSuccess()).isFalse();
    assertThat(otlp.exportSizes()).containsExactly(2);
    assertThat(otlp.records())
        .first()
        .satisfies(
            r -> {
              assertThat(r.body()).isEqualTo("{\"a\":1}");
              assertThat(r.timeUnixNano()).isEqualTo(1_700_000_000_000_000_001L);
              assertThat(r.severityNumber()).isEqualTo(9);
              assertThat(r.traceId()).contains(TRACE);
              assertThat(r.lokiLabels())
                  .containsExactlyInAnyOrderEntriesOf(
                      java.util.Map.of("service_name", "salesforce", "service_namespace", "acme"));
              assertThat(r.lokiMetadata())
                  .containsEntry("event_type", "Login")
                  .containsEntry("source", "eventlogfile")
                  .containsEntry("severity_text", "info")
                  .containsEntry("trace_id", TRACE);
            });
  }

  @Test
  void anOtlpConfigThatPromotesLogAttributesMakesThemLabels() throws Exception {
    otlp =
        FakeOtlpLogs.builder()
            .rules(LokiOtlpRules.promoting(Set.of("event_type", "source")))
            .start();

    post(FakeOtlpLogs.LOKI_LOGS_PATH, export().toByteArray(), false);

    assertThat(otlp.records().get(0).lokiLabels())
        .containsEntry("event_type", "Login")
        .containsEntry("source", "eventlogfile")
        .containsEntry("service_name", "salesforce");
    assertThat(otlp.records().get(0).lokiMetadata()).doesNotContainKeys("event_type", "source");
  }

  @Test
  void decodesTheJsonMappingWithHexTraceIdsAndStringIntegers() throws Exception {
    otlp = FakeOtlpLogs.start();
    String json =
        "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
            + "\"value\":{\"stringValue\":\"salesforce\"}}]},\"scopeLogs\":[{\"scope\":"
            + "{\"name\":\"sf2loki\"},\"logRecords\":[{\"timeUnixNano\":\"1700000000000000001\","
            + "\"observedTimeUnixNano\":\"1700000000500000000\",\"severityNumber\":17,"
            + "\"severityText\":\"error\",\"body\":{\"stringValue\":\"x\"},\"traceId\":\""
            + TRACE
            + "\"}]}]}]}";

    HttpResponse<byte[]> answer =
        post(FakeOtlpLogs.LOGS_PATH, json.getBytes(StandardCharsets.UTF_8), false, true);

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type")).contains("application/json");
    assertThat(otlp.records())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.timeUnixNano()).isEqualTo(1_700_000_000_000_000_001L);
              assertThat(r.observedTimeUnixNano()).isEqualTo(1_700_000_000_500_000_000L);
              assertThat(r.severityNumber()).isEqualTo(17);
              assertThat(r.traceId()).contains(TRACE);
              assertThat(r.scope()).isEqualTo("sf2loki");
            });
  }

  @Test
  void rejectedRecordsAreAPartialSuccessAndTheRestIsKept() throws Exception {
    otlp =
        FakeOtlpLogs.builder()
            .rejecting(r -> r.body().contains("2"), "entry too large for tenant")
            .start();

    HttpResponse<byte[]> answer = post(FakeOtlpLogs.LOGS_PATH, export().toByteArray(), false);

    ExportLogsServiceResponse response = ExportLogsServiceResponse.parseFrom(answer.body());
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(response.getPartialSuccess().getRejectedLogRecords()).isEqualTo(1);
    assertThat(response.getPartialSuccess().getErrorMessage())
        .isEqualTo("entry too large for tenant");
    assertThat(otlp.records()).extracting(ReceivedLogRecord::body).containsExactly("{\"a\":1}");
  }

  @Test
  void aJsonPartialSuccessCarriesTheCountAsAString() throws Exception {
    otlp = FakeOtlpLogs.builder().rejecting(r -> true, "no").start();
    String json =
        "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"x\"}}]}]}]}";

    HttpResponse<byte[]> answer =
        post(FakeOtlpLogs.LOGS_PATH, json.getBytes(StandardCharsets.UTF_8), false, true);

    assertThat(new String(answer.body(), StandardCharsets.UTF_8))
        .isEqualTo("{\"partialSuccess\":{\"rejectedLogRecords\":\"1\",\"errorMessage\":\"no\"}}");
  }

  @Test
  void scriptedFaultsAnswerWithRetryAfterAndKeepNothing() throws Exception {
    otlp = FakeOtlpLogs.start();
    otlp.inject(OtlpFault.throttled(3, 1));
    otlp.inject(OtlpFault.retryAfter(503, 2, 1));

    HttpResponse<byte[]> first = post(FakeOtlpLogs.LOGS_PATH, export().toByteArray(), false);
    HttpResponse<byte[]> second = post(FakeOtlpLogs.LOGS_PATH, export().toByteArray(), false);
    HttpResponse<byte[]> third = post(FakeOtlpLogs.LOGS_PATH, export().toByteArray(), false);

    assertThat(first.statusCode()).isEqualTo(429);
    assertThat(first.headers().firstValue("Retry-After")).contains("3");
    assertThat(second.statusCode()).isEqualTo(503);
    assertThat(second.headers().firstValue("Retry-After")).contains("2");
    assertThat(third.statusCode()).isEqualTo(200);
    assertThat(otlp.records()).hasSize(2);
    assertThat(otlp.answers()).containsExactly(429, 503, 200);
  }

  @Test
  void aNoneFaultLetsAnExportThroughSoTheNextFaultStrikesTheOneAfter() throws Exception {
    otlp = FakeOtlpLogs.start();
    otlp.inject(OtlpFault.none(1));
    otlp.inject(OtlpFault.status(400, 1));

    post(FakeOtlpLogs.LOGS_PATH, export().toByteArray(), false);
    post(FakeOtlpLogs.LOGS_PATH, export().toByteArray(), false);

    assertThat(otlp.answers()).containsExactly(200, 400);
    assertThat(otlp.records()).hasSize(2);
  }

  @Test
  void aBodyThatDoesNotDecodeIsA400WithAStatusMessage() throws Exception {
    otlp = FakeOtlpLogs.start();

    HttpResponse<byte[]> answer =
        post(FakeOtlpLogs.LOGS_PATH, new byte[] {(byte) 0xff, 0x01}, false);

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(new String(answer.body(), StandardCharsets.UTF_8))
        .contains("proto: not an ExportLogsServiceRequest");
    assertThat(otlp.records()).isEmpty();
  }

  @Test
  void anotherContentTypeIs415() throws Exception {
    otlp = FakeOtlpLogs.start();
    HttpRequest request =
        HttpRequest.newBuilder(otlp.logsUrl())
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "text/plain")
            .POST(HttpRequest.BodyPublishers.ofString("x"))
            .build();

    assertThat(HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode())
        .isEqualTo(415);
  }

  private static ExportLogsServiceRequest export() {
    Resource resource =
        Resource.newBuilder()
            .addAttributes(kv("service.name", "salesforce"))
            .addAttributes(kv("service.namespace", "acme"))
            .build();
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (int i = 1; i <= 2; i++) {
      scope.addLogRecords(
          LogRecord.newBuilder()
              .setTimeUnixNano(1_700_000_000_000_000_000L + i)
              .setSeverityNumberValue(9)
              .setSeverityText("info")
              .setBody(AnyValue.newBuilder().setStringValue("{\"a\":" + i + "}"))
              .addAttributes(kv("source", "eventlogfile"))
              .addAttributes(kv("event_type", "Login"))
              .setTraceId(ByteString.copyFrom(HexFormat.of().parseHex(TRACE))));
    }
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().setResource(resource).addScopeLogs(scope))
        .build();
  }

  private static KeyValue kv(String k, String v) {
    return KeyValue.newBuilder()
        .setKey(k)
        .setValue(AnyValue.newBuilder().setStringValue(v))
        .build();
  }

  private static byte[] gzip(byte[] b) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(b);
    }
    return out.toByteArray();
  }

  private HttpResponse<byte[]> post(String path, byte[] body, boolean gzipped) throws Exception {
    return post(path, body, gzipped, false);
  }

  private HttpResponse<byte[]> post(String path, byte[] body, boolean gzipped, boolean json)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(otlp.uri().resolve(path))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", json ? "application/json" : "application/x-protobuf")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (gzipped) {
      b.header("Content-Encoding", "gzip");
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }
}
