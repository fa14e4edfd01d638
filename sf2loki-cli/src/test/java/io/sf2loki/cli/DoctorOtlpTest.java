package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.testkit.otlp.FakeOtlpLogs;
import io.sf2loki.testkit.otlp.OtlpFault;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The otlp check of {@code sink.type = otlp}: an empty ExportLogsServiceRequest. */
class DoctorOtlpTest {

  @TempDir Path dir;
  DoctorFixture fx;
  FakeOtlpLogs otlp;

  @BeforeEach
  void start() throws Exception {
    fx = new DoctorFixture(dir);
    otlp = FakeOtlpLogs.start();
  }

  @AfterEach
  void stop() {
    otlp.close();
    fx.close();
  }

  private String otlpSink(String encoding) {
    return "sink.type = otlp\nsink.otlp { url = \""
        + otlp.uri()
        + "/otlp\", encoding = "
        + encoding
        + ", tenant_id = acme }\n";
  }

  @Test
  void theEndpointAcceptingAnEmptyExportPassesAndNoRecordIsWritten() throws Exception {
    JsonNode check = fx.checkOf(otlpSink("protobuf"), "otlp");

    assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("PASS");
    assertThat(check.path("detail").asText()).contains("/otlp/v1/logs").contains("HTTP 200");
    assertThat(otlp.exportSizes()).containsExactly(0);
    assertThat(otlp.records()).isEmpty();
    assertThat(otlp.requestHeaders().get(0)).containsEntry("x-scope-orgid", "acme");
  }

  @Test
  void theJsonEncodingIsCheckedToo() throws Exception {
    JsonNode check = fx.checkOf(otlpSink("json"), "otlp");

    assertThat(check.path("status").asText()).isEqualTo("PASS");
    assertThat(otlp.requestHeaders().get(0)).containsEntry("content-type", "application/json");
  }

  @Test
  void anEndpointThatDoesNotDecompressZstdFailsSayingUseGzip() throws Exception {
    otlp.close();
    otlp = FakeOtlpLogs.builder().gzipOnly().start(); // a Loki before 3.6

    JsonNode check =
        fx.checkOf(
            "sink.type = otlp\nsink.otlp { url = \""
                + otlp.uri()
                + "/otlp\", compression = zstd }\n",
            "otlp");

    assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("FAIL");
    assertThat(check.path("detail").asText()).contains("does not accept zstd request bodies");
    assertThat(check.path("remedy").asText())
        .contains("use gzip (sink.otlp.compression = gzip)")
        .contains("3.6.0");
  }

  @Test
  void anEndpointThatDecompressesLz4Passes() throws Exception {
    JsonNode check =
        fx.checkOf(
            "sink.type = otlp\nsink.otlp { url = \""
                + otlp.uri()
                + "/otlp\", compression = lz4 }\n",
            "otlp");

    assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("PASS");
    assertThat(otlp.requestHeaders().get(0)).containsEntry("content-encoding", "lz4");
    assertThat(otlp.records()).isEmpty();
  }

  @Test
  void refusedCredentialsFailWithTheAuthHint() throws Exception {
    otlp.inject(OtlpFault.status(401, 1));

    JsonNode check = fx.checkOf(otlpSink("protobuf"), "otlp");

    assertThat(check.path("status").asText()).isEqualTo("FAIL");
    assertThat(check.path("detail").asText()).contains("HTTP 401: scripted fault");
    assertThat(check.path("remedy").asText()).contains("sink.otlp.tenant_id");
  }

  @Test
  void anUnreachableEndpointFailsPointingAtTheUrl() throws Exception {
    JsonNode check =
        fx.checkOf("sink.type = otlp\nsink.otlp.url = \"http://127.0.0.1:9\"\n", "otlp");

    assertThat(check.path("status").asText()).isEqualTo("FAIL");
    assertThat(check.path("remedy").asText()).contains("sink.otlp.url");
  }

  @Test
  void noLokiCheckRunsForAnOtlpSink() throws Exception {
    JsonNode report = DoctorFixture.report(fx.doctor(otlpSink("protobuf"), "--json"));

    assertThat(DoctorFixture.check(report, "loki")).isEmpty();
    assertThat(fx.loki.pushes()).isEmpty();
  }
}
