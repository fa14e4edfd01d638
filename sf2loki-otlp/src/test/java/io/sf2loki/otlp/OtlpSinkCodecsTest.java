package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.otlp.OtlpSinkConfig.Compression;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.testkit.otlp.FakeOtlpLogs;
import io.sf2loki.testkit.otlp.ReceivedLogRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code sink.otlp.compression = zstd | lz4} end to end, into the fake receiver. */
class OtlpSinkCodecsTest {

  @TempDir Path dir;

  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  FakeOtlpLogs otlp;

  @AfterEach
  void stop() {
    if (otlp != null) {
      otlp.close();
    }
  }

  private OtlpSink sink(Compression compression) throws Exception {
    return sink(OtlpConfigs.to(otlp.uri()).compression(compression));
  }

  private OtlpSink sink(OtlpConfigs configs) throws Exception {
    return new OtlpSink(
        configs.deadLetter(dir.resolve("dead.jsonl")).build(), registry, Clock.systemUTC());
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"ZSTD", "LZ4"})
  void everyRecordArrivesThroughTheCodec(Compression compression) throws Exception {
    otlp = FakeOtlpLogs.start();

    try (OtlpSink sink = sink(compression)) {
      sink.push(OtlpSinkAnswersTest.batch(20));
    }

    assertThat(otlp.records()).extracting(ReceivedLogRecord::body).hasSize(20).contains("line-0");
    assertThat(otlp.requestHeaders())
        .singleElement()
        .satisfies(h -> assertThat(h).containsEntry("content-encoding", compression.configName()));
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"ZSTD", "LZ4"})
  void anEndpointThatDoesNotDecompressTheCodecIsNamedAndNothingIsDropped(Compression compression)
      throws Exception {
    otlp = FakeOtlpLogs.builder().gzipOnly().start(); // a Loki before 3.6

    try (OtlpSink sink = sink(compression)) {
      assertThatThrownBy(() -> sink.push(OtlpSinkAnswersTest.batch(20)))
          .isInstanceOf(RetryableSinkException.class)
          .hasMessageContaining("does not accept " + compression.configName())
          .hasMessageContaining("sink.otlp.compression = gzip");
    }

    assertThat(otlp.answers()).containsExactly(400); // one request: no bisection
    assertThat(otlp.records()).isEmpty();
    assertThat(Files.exists(dir.resolve("dead.jsonl"))).isFalse();
    assertThat(registry.find("sf2loki_loki_entries_dropped").counters())
        .allSatisfy(c -> assertThat(c.count()).isZero());
  }

  @Test
  void aRefusalIsNamedWhenPlanningAgainstALokiToo() throws Exception {
    otlp = FakeOtlpLogs.builder().gzipOnly().start();

    try (OtlpSink sink = sink(OtlpConfigs.to(otlp.uri()).compression(Compression.ZSTD).loki(""))) {
      assertThatThrownBy(() -> sink.push(OtlpSinkAnswersTest.batch(20)))
          .isInstanceOf(RetryableSinkException.class)
          .hasMessageContaining("does not accept zstd");
    }

    assertThat(otlp.answers()).containsExactly(400);
    assertThat(Files.exists(dir.resolve("dead.jsonl"))).isFalse();
  }
}
