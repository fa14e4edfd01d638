package io.sf2loki.testkit.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedInputStream;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import io.sf2loki.testkit.loki.LokiLimits;
import io.sf2loki.testkit.time.ManualClock;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fake OTLP receiver playing a Loki's time windows, answering as Loki's /otlp does. */
class FakeOtlpLogsLokiWindowsTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Instant NOW = Instant.parse("2026-07-01T12:00:00Z");

  private final ManualClock clock = new ManualClock(NOW);
  private FakeOtlpLogs otlp;

  @AfterEach
  void stop() {
    if (otlp != null) {
      otlp.close();
    }
  }

  private void start() throws Exception {
    otlp =
        FakeOtlpLogs.builder()
            .rules(LokiOtlpRules.promoting(Set.of("event_type")))
            .lokiWindows(LokiLimits.defaults(), clock)
            .start();
  }

  @Test
  void aFullSuccessIs204WithoutABodyAndAnExactDuplicateIsStoredOnce() throws Exception {
    start();

    HttpResponse<byte[]> first = post(record("Login", NOW.minusSeconds(60), "a"));
    HttpResponse<byte[]> again = post(record("Login", NOW.minusSeconds(60), "a"));

    assertThat(first.statusCode()).isEqualTo(204);
    assertThat(first.body()).isEmpty();
    assertThat(again.statusCode()).isEqualTo(204);
    assertThat(otlp.records()).hasSize(1);
    assertThat(otlp.refused()).isEmpty();
  }

  @Test
  void aRecordOlderThanTheMaxAgeIsRefusedWithLokisTextAndTheRestIsStored() throws Exception {
    start();

    HttpResponse<byte[]> answer =
        post(
            record("Login", NOW.minus(Duration.ofDays(8)), "old"),
            record("Login", NOW.minusSeconds(5), "new"));

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(answer.headers().firstValue("Content-Type")).contains("application/octet-stream");
    assertThat(statusMessage(answer.body()))
        .startsWith(
            "entry for stream '{event_type=\"Login\", service_name=\"salesforce\"}' has timestamp"
                + " too old: 2026-06-23T12:00:00Z, oldest acceptable timestamp is:"
                + " 2026-06-24T12:00:00Z");
    assertThat(otlp.records()).extracting(ReceivedLogRecord::body).containsExactly("new");
    assertThat(otlp.refused())
        .extracting(FakeOtlpLogs.Refusal::reason)
        .containsExactly("greater_than_max_sample_age");
  }

  @Test
  void aRecordFurtherAheadThanTheGracePeriodIsRefusedAsTooNew() throws Exception {
    start();

    HttpResponse<byte[]> answer = post(record("Login", NOW.plus(Duration.ofMinutes(11)), "x"));

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(statusMessage(answer.body())).contains("has timestamp too new");
    assertThat(otlp.refused())
        .extracting(FakeOtlpLogs.Refusal::reason)
        .containsExactly("too_far_in_future");
  }

  @Test
  void aRecordTooFarBehindItsLokiStreamIsRefusedWithTheIngestersBlock() throws Exception {
    start();
    post(record("Login", NOW.minusSeconds(60), "live"));

    HttpResponse<byte[]> answer = post(record("Login", NOW.minus(Duration.ofHours(3)), "late"));

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(statusMessage(answer.body()))
        .contains(
            "ignored, reason: 'entry too far behind, entry timestamp is: 2026-07-01T09:00:00Z")
        .contains("oldest acceptable timestamp is: 2026-07-01T10:59:00Z")
        .contains(
            "user 'fake', total ignored: 1 out of 1 for stream: {event_type=\"Login\","
                + " service_name=\"salesforce\"}");
    assertThat(otlp.refused())
        .extracting(FakeOtlpLogs.Refusal::reason)
        .containsExactly("too_far_behind");
  }

  @Test
  void theWindowIsPerLokiStreamSoAnotherIndexedValueIsNotBehind() throws Exception {
    start();
    post(record("Login", NOW.minusSeconds(60), "live"));

    HttpResponse<byte[]> answer = post(record("Logout", NOW.minus(Duration.ofHours(3)), "other"));

    assertThat(answer.statusCode()).isEqualTo(204);
    assertThat(otlp.records()).hasSize(2);
  }

  @Test
  void onlyTheRequestsLastStreamReportsRecordsTooFarBehindAsLokisIngesterDoes() throws Exception {
    start();
    post(record("Login", NOW.minusSeconds(60), "live"));

    HttpResponse<byte[]> answer =
        post(
            record("Login", NOW.minus(Duration.ofHours(3)), "lost"),
            record("Logout", NOW.minusSeconds(30), "fine"));

    assertThat(answer.statusCode()).isEqualTo(204);
    assertThat(otlp.records()).extracting(ReceivedLogRecord::body).containsExactly("live", "fine");
    assertThat(otlp.refused()).extracting(r -> r.record().body()).containsExactly("lost");
  }

  @Test
  void attributeNamesBecomeLabelNamesAsLokisLabelNamerMakesThem() {
    assertThat(LokiOtlpRules.name("service.name")).isEqualTo("service_name");
    assertThat(LokiOtlpRules.name("a..b__c")).isEqualTo("a_b_c");
    assertThat(LokiOtlpRules.name("1st")).isEqualTo("key_1st");
    assertThat(LokiOtlpRules.name("__stream_shard__")).isEqualTo("__stream_shard__");
  }

  private static LogRecord record(String eventType, Instant at, String body) {
    return LogRecord.newBuilder()
        .setTimeUnixNano(at.getEpochSecond() * 1_000_000_000L + at.getNano())
        .setBody(AnyValue.newBuilder().setStringValue(body))
        .addAttributes(kv("event_type", eventType))
        .build();
  }

  private static KeyValue kv(String k, String v) {
    return KeyValue.newBuilder()
        .setKey(k)
        .setValue(AnyValue.newBuilder().setStringValue(v))
        .build();
  }

  private HttpResponse<byte[]> post(LogRecord... records) throws Exception {
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (LogRecord r : records) {
      scope.addLogRecords(r);
    }
    Resource resource =
        Resource.newBuilder().addAttributes(kv("service.name", "salesforce")).build();
    byte[] body =
        ExportLogsServiceRequest.newBuilder()
            .addResourceLogs(ResourceLogs.newBuilder().setResource(resource).addScopeLogs(scope))
            .build()
            .toByteArray();
    HttpRequest request =
        HttpRequest.newBuilder(otlp.uri().resolve(FakeOtlpLogs.LOKI_LOGS_PATH))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/x-protobuf")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
  }

  /** The message (field 2) of a {@code google.rpc.Status}. */
  private static String statusMessage(byte[] body) throws Exception {
    CodedInputStream in = CodedInputStream.newInstance(body);
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == (2 << 3 | 2)) {
        return in.readStringRequireUtf8();
      }
      in.skipField(tag);
    }
    return "";
  }
}
