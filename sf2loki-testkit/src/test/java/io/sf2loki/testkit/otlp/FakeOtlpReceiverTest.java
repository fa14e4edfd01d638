package io.sf2loki.testkit.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FakeOtlpReceiverTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private FakeOtlpReceiver otlp;

  @BeforeEach
  void start() throws Exception {
    otlp = FakeOtlpReceiver.start();
  }

  @AfterEach
  void stop() {
    otlp.close();
  }

  @Test
  void recordsEveryPointByMetricNameWithTheResourceAndPointAttributes() throws Exception {
    HttpResponse<byte[]> answer = post(export().toByteArray(), false);

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(ExportMetricsServiceResponse.parseFrom(answer.body()).hasPartialSuccess()).isFalse();
    assertThat(otlp.metricNames()).containsExactly("sf2loki_leader", "sf2loki_pushes");
    assertThat(otlp.points("sf2loki_leader"))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.type()).isEqualTo("gauge");
              assertThat(p.value()).isEqualTo(1.0);
              assertThat(p.resource())
                  .containsEntry("service.name", "sf2loki")
                  .containsEntry("service.instance.id", "pod-a");
            });
    assertThat(otlp.points("sf2loki_pushes"))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.type()).isEqualTo("sum");
              assertThat(p.value()).isEqualTo(42.0);
              assertThat(p.attributes()).isEqualTo(Map.of("lane", "bulk"));
            });
  }

  @Test
  void decodesAGzippedExport() throws Exception {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
      gzip.write(export().toByteArray());
    }

    assertThat(post(zipped.toByteArray(), true).statusCode()).isEqualTo(200);
    assertThat(otlp.metricNames()).contains("sf2loki_leader");
  }

  @Test
  void aScriptedFaultAnswersInsteadOfRecordingThenTheReceiverAcceptsAgain() throws Exception {
    otlp.inject(OtlpFault.status(503, 1));
    otlp.inject(OtlpFault.throttled(7, 1));

    assertThat(post(export().toByteArray(), false).statusCode()).isEqualTo(503);
    HttpResponse<byte[]> throttled = post(export().toByteArray(), false);
    assertThat(throttled.statusCode()).isEqualTo(429);
    assertThat(throttled.headers().firstValue("Retry-After")).hasValue("7");
    assertThat(otlp.points()).isEmpty();
    assertThat(otlp.pendingFaults()).isZero();

    assertThat(post(export().toByteArray(), false).statusCode()).isEqualTo(200);
    assertThat(otlp.answers()).containsExactly(503, 429, 200);
  }

  @Test
  void aBodyThatIsNotAnExportIsRefusedWith400() throws Exception {
    assertThat(post(new byte[] {(byte) 0xff, 0x01, 0x02}, false).statusCode()).isEqualTo(400);
    assertThat(otlp.points()).isEmpty();
  }

  @Test
  void aBodyThatIsNotProtobufIsRefusedWith415() throws Exception {
    HttpResponse<byte[]> answer =
        HTTP.send(
            HttpRequest.newBuilder(otlp.metricsUrl())
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(answer.statusCode()).isEqualTo(415);
  }

  private HttpResponse<byte[]> post(byte[] body, boolean gzip) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(otlp.metricsUrl())
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/x-protobuf")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (gzip) {
      request.header("Content-Encoding", "gzip");
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static ExportMetricsServiceRequest export() {
    Metric leader =
        Metric.newBuilder()
            .setName("sf2loki_leader")
            .setGauge(Gauge.newBuilder().addDataPoints(NumberDataPoint.newBuilder().setAsDouble(1)))
            .build();
    Metric pushes =
        Metric.newBuilder()
            .setName("sf2loki_pushes")
            .setSum(
                Sum.newBuilder()
                    .addDataPoints(
                        NumberDataPoint.newBuilder()
                            .setAsInt(42)
                            .addAttributes(kv("lane", "bulk"))))
            .build();
    return ExportMetricsServiceRequest.newBuilder()
        .addResourceMetrics(
            ResourceMetrics.newBuilder()
                .setResource(
                    Resource.newBuilder()
                        .addAttributes(kv("service.name", "sf2loki"))
                        .addAttributes(kv("service.instance.id", "pod-a")))
                .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(leader).addMetrics(pushes)))
        .build();
  }

  private static KeyValue kv(String key, String value) {
    return KeyValue.newBuilder()
        .setKey(key)
        .setValue(AnyValue.newBuilder().setStringValue(value))
        .build();
  }
}
