package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.sf2loki.otlp.OtlpSinkConfig.Compression;
import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * doctor's probe, compressed, must not parse as protobuf: a Loki before 3.6 parses a zstd or lz4
 * body as it came, and only a parse failure shows doctor the endpoint does not decompress it.
 */
class OtlpReachabilityProbeTest {

  @ParameterizedTest(name = "{0} level {1}")
  @CsvSource({"ZSTD, 1", "ZSTD, 3", "ZSTD, 19", "LZ4, 1"})
  void theCompressedProbeIsNotProtobufAsItComes(Compression compression, int level)
      throws Exception {
    OtlpSinkConfig config =
        OtlpConfigs.to(URI.create("http://c:4318")).compression(compression).build();
    byte[] probe = OtlpReachability.probe(config);

    byte[] body = Codecs.compress(compression, probe, level);

    assertThat(ExportLogsServiceRequest.parseFrom(probe).getResourceLogsCount()).isEqualTo(1);
    assertThatThrownBy(() -> ExportLogsServiceRequest.parseFrom(body))
        .isInstanceOf(InvalidProtocolBufferException.class);
  }
}
