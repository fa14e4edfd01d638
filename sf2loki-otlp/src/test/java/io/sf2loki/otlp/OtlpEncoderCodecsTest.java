package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.airlift.compress.zstd.ZstdInputStream;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.sf2loki.bench.BenchEntries;
import io.sf2loki.model.LogEntry;
import io.sf2loki.otlp.OtlpSinkConfig.Compression;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * zstd and lz4 bodies, read back with decoders independent of the sink's libraries (aircompressor,
 * commons-compress) and parsed with the official classes.
 */
class OtlpEncoderCodecsTest {

  private final LogRecordMapping mapping =
      new LogRecordMapping("salesforce", Optional.empty(), Optional.empty());
  private final List<LogEntry> entries = new BenchEntries().entries(300);

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"ZSTD", "LZ4"})
  void aCompressedBodyDecodesToTheSameRequest(Compression compression) throws IOException {
    OtlpEncoder encoder = encoder(compression, 1);

    OtlpEncoder.Body body = encoder.encode(entries, 7L);

    assertThat(body.contentEncoding()).contains(compression.configName());
    assertThat(body.contentType()).isEqualTo("application/x-protobuf");
    assertThat(ExportLogsServiceRequest.parseFrom(decompress(compression, body.bytes())))
        .isEqualTo(encoder.request(entries, 7L));
    assertThat(body.bytes().length)
        .isLessThan(encoder.request(entries, 7L).getSerializedSize() / 2);
  }

  @Test
  void theZstdLevelTradesSizeForSpeedOverTheSameRequest() throws IOException {
    byte[] fast = encoder(Compression.ZSTD, 1).encode(entries, 7L).bytes();
    byte[] small = encoder(Compression.ZSTD, 19).encode(entries, 7L).bytes();

    assertThat(fast.length).isGreaterThan(small.length);
    assertThat(decompress(Compression.ZSTD, fast)).isEqualTo(decompress(Compression.ZSTD, small));
  }

  @Test
  void anEmptyRequestRoundTrips() throws IOException {
    for (Compression c : List.of(Compression.ZSTD, Compression.LZ4)) {
      byte[] body = encoder(c, 1).encode(List.of(), 0).bytes();
      assertThat(decompress(c, body)).isEmpty();
    }
  }

  private OtlpEncoder encoder(Compression compression, int level) {
    return new OtlpEncoder(mapping, OtlpSinkConfig.Encoding.PROTOBUF, compression, level, "test");
  }

  static byte[] decompress(Compression compression, byte[] body) throws IOException {
    ByteArrayInputStream raw = new ByteArrayInputStream(body);
    try (InputStream in =
        compression == Compression.ZSTD
            ? new ZstdInputStream(raw)
            : new FramedLZ4CompressorInputStream(raw)) {
      return in.readAllBytes();
    }
  }
}
