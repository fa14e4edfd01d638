package io.sf2loki.testkit.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.airlift.compress.zstd.ZstdOutputStream;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** zstd and lz4 bodies: decoded as Loki 3.6 and the Collector do, or not, as a Loki before. */
class FakeOtlpLogsCodecsTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private FakeOtlpLogs otlp;

  @AfterEach
  void stop() {
    if (otlp != null) {
      otlp.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zstd", "lz4"})
  void aCompressedExportIsDecodedAndKept(String encoding) throws Exception {
    otlp = FakeOtlpLogs.start();

    HttpResponse<byte[]> answer = post(encoding, compress(encoding, export(3).toByteArray()));

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(otlp.records()).extracting(ReceivedLogRecord::body).containsExactly("0", "1", "2");
  }

  @ParameterizedTest
  @ValueSource(strings = {"zstd", "lz4"})
  void aLokiBefore36ParsesTheCompressedBytesAsTheyCameAndAnswers400(String encoding)
      throws Exception {
    otlp = FakeOtlpLogs.builder().gzipOnly().start();

    HttpResponse<byte[]> answer = post(encoding, compress(encoding, export(3).toByteArray()));

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(new String(answer.body(), StandardCharsets.UTF_8)).contains("proto:");
    assertThat(otlp.records()).isEmpty();
  }

  @Test
  void anEncodingNoLokiReadsIsRefusedWithLokisText() throws Exception {
    otlp = FakeOtlpLogs.start();

    HttpResponse<byte[]> answer = post("br", export(1).toByteArray());

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(new String(answer.body(), StandardCharsets.UTF_8))
        .contains("unsupported content encoding br: only gzip, lz4 and zstd are supported");
  }

  private static ExportLogsServiceRequest export(int n) {
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (int i = 0; i < n; i++) {
      scope.addLogRecords(
          LogRecord.newBuilder()
              .setTimeUnixNano(1_700_000_000_000_000_000L + i)
              .setBody(AnyValue.newBuilder().setStringValue(Integer.toString(i))));
    }
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(scope))
        .build();
  }

  private static byte[] compress(String encoding, byte[] raw) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream c =
        encoding.equals("zstd")
            ? new ZstdOutputStream(out)
            : new FramedLZ4CompressorOutputStream(out)) {
      c.write(raw);
    }
    return out.toByteArray();
  }

  private HttpResponse<byte[]> post(String encoding, byte[] body) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(otlp.logsUrl())
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/x-protobuf")
            .header("Content-Encoding", encoding)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
  }
}
