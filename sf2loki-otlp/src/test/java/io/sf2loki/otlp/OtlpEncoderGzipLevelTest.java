package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.sf2loki.bench.BenchEntries;
import io.sf2loki.model.LogEntry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class OtlpEncoderGzipLevelTest {

  private final LogRecordMapping mapping =
      new LogRecordMapping("salesforce", Optional.empty(), Optional.empty());
  private final List<LogEntry> entries = new BenchEntries().entries(200);

  @Test
  void theGzipLevelTradesSizeForSpeedOverTheSameRequest() throws IOException {
    OtlpEncoder.Body fastest = encoder(1).encode(entries, 1L);
    OtlpEncoder.Body smallest = encoder(9).encode(entries, 1L);

    assertThat(fastest.bytes().length).isGreaterThan(smallest.bytes().length);
    assertThat(fastest.contentEncoding()).contains("gzip");
    assertThat(gunzip(fastest)).isEqualTo(gunzip(smallest));
    assertThat(gunzip(fastest).getResourceLogs(0).getScopeLogs(0).getLogRecordsCount())
        .isEqualTo(200);
  }

  private OtlpEncoder encoder(int level) {
    return new OtlpEncoder(
        mapping, OtlpSinkConfig.Encoding.PROTOBUF, OtlpSinkConfig.Compression.GZIP, level, "test");
  }

  private static ExportLogsServiceRequest gunzip(OtlpEncoder.Body body) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body.bytes()))) {
      return ExportLogsServiceRequest.parseFrom(in);
    }
  }
}
