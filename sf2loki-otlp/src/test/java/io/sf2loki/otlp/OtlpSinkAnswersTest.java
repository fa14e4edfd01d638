package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.otlp.OtlpSinkConfig.Encoding;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.testkit.otlp.FakeOtlpLogs;
import io.sf2loki.testkit.otlp.OtlpFault;
import io.sf2loki.testkit.otlp.ReceivedLogRecord;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How the sink reads each answer of the endpoint: one attempt, the lane retries. */
class OtlpSinkAnswersTest {

  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  FakeOtlpLogs otlp;

  @AfterEach
  void stop() {
    if (otlp != null) {
      otlp.close();
    }
  }

  static Batch batch(int n) {
    List<LogEntry> entries = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      entries.add(
          LogEntry.of(
              1_796_000_000_000_000_000L + i,
              Map.of("source", "eventlogfile", "event_type", "Login"),
              (i % 5 == 3 ? "POISON " : "") + "line-" + i,
              Map.of("level", "info"),
              Optional.empty()));
    }
    return new Batch(entries);
  }

  OtlpSink sink(OtlpConfigs configs) throws Exception {
    return new OtlpSink(configs.build(), registry, Clock.systemUTC());
  }

  OtlpConfigs to() {
    return OtlpConfigs.to(otlp.uri()).deadLetter(dir.resolve("dead.jsonl"));
  }

  @ParameterizedTest(name = "{0} with Retry-After {1}")
  @CsvSource({"429, 3", "503, 7"})
  void aThrottleIsRetryableWithTheRetryAfterAskedFor(int status, int seconds) throws Exception {
    otlp = FakeOtlpLogs.start();
    otlp.inject(OtlpFault.retryAfter(status, seconds, 1));

    try (OtlpSink sink = sink(to())) {
      assertThatThrownBy(() -> sink.push(batch(3)))
          .isInstanceOfSatisfying(
              RetryableSinkException.class,
              e -> {
                assertThat(e.status()).hasValue(status);
                assertThat(e.retryAfter()).contains(Duration.ofSeconds(seconds));
                assertThat(e.getMessage()).contains("answered " + status + ": scripted fault");
              });
      sink.push(batch(3)); // the lane's retry
    }
    assertThat(otlp.records()).hasSize(3);
    assertThat(registry.counter("sf2loki_otlp_responses", "status", "" + status).count())
        .isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"401", "403", "404", "500", "502"})
  void otherFailuresAreRetryableToo(int status) throws Exception {
    otlp = FakeOtlpLogs.start();
    otlp.inject(OtlpFault.status(status, 1));

    try (OtlpSink sink = sink(to())) {
      assertThatThrownBy(() -> sink.push(batch(2))).isInstanceOf(RetryableSinkException.class);
    }
    assertThat(otlp.records()).isEmpty();
  }

  @Test
  void noAnswerIsARetryableTransportError() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    OtlpConfigs configs = OtlpConfigs.to(URI.create("http://127.0.0.1:" + port));

    try (OtlpSink sink = sink(configs)) {
      assertThatThrownBy(() -> sink.push(batch(1)))
          .isInstanceOfSatisfying(
              RetryableSinkException.class, e -> assertThat(e.status()).isEmpty());
    }
    assertThat(registry.counter("sf2loki_otlp_transport_errors", "reason", "connect").count())
        .isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"PROTOBUF", "JSON"})
  void aPartialSuccessDeadLettersExactlyTheRejectedRecordsAndDeliversTheRest(Encoding encoding)
      throws Exception {
    otlp =
        FakeOtlpLogs.builder()
            .rejecting(r -> r.body().startsWith("POISON"), "entry too large for tenant")
            .start();
    Batch batch = batch(20);

    try (OtlpSink sink = sink(to().encoding(encoding, true))) {
      sink.push(batch);
    }

    List<String> poison =
        IntStream.range(0, 20).filter(i -> i % 5 == 3).mapToObj(i -> "POISON line-" + i).toList();
    List<String> rest =
        batch.entries().stream().map(LogEntry::line).filter(l -> !poison.contains(l)).toList();
    assertThat(otlp.records().stream().map(ReceivedLogRecord::body).distinct())
        .containsExactlyInAnyOrderElementsOf(rest);
    List<JsonNode> dead = deadLetters();
    assertThat(dead).extracting(n -> n.get("line").asText()).containsExactlyElementsOf(poison);
    assertThat(dead)
        .allSatisfy(
            n -> {
              assertThat(n.get("reason").asText()).isEqualTo("partial_success");
              assertThat(n.get("status").asInt()).isEqualTo(200);
              assertThat(n.get("error").asText()).isEqualTo("entry too large for tenant");
            });
    assertThat(
            registry
                .counter(
                    "sf2loki_loki_entries_dropped",
                    "reason",
                    "partial_success",
                    "source",
                    "eventlogfile",
                    "event_type",
                    "Login")
                .count())
        .isEqualTo(poison.size());
  }

  @Test
  void aPartialSuccessRejectingEveryRecordIsNotBisected() throws Exception {
    otlp = FakeOtlpLogs.builder().rejecting(r -> true, "tenant blocked").start();

    try (OtlpSink sink = sink(to())) {
      sink.push(batch(8));
    }

    assertThat(otlp.exportSizes()).containsExactly(8);
    assertThat(deadLetters()).hasSize(8);
  }

  @Test
  void aBadRequestIsBisectedDownToTheRecordsItRefuses() throws Exception {
    otlp = FakeOtlpLogs.start();
    otlp.inject(OtlpFault.status(400, 1)); // the whole request: each half then passes

    try (OtlpSink sink = sink(to())) {
      sink.push(batch(4));
    }

    assertThat(otlp.exportSizes()).containsExactly(4, 2, 2);
    assertThat(otlp.records()).hasSize(4);
    assertThat(deadLetters()).isEmpty();
  }

  @Test
  void aRetryAfterAFailurePartWaySendsOnlyWhatIsUnresolved() throws Exception {
    otlp = FakeOtlpLogs.start();
    otlp.inject(OtlpFault.status(400, 1)); // the request of 4: bisected
    otlp.inject(OtlpFault.none(1)); // its first half is delivered
    otlp.inject(OtlpFault.retryAfter(503, 1, 1)); // its second half is not

    try (OtlpSink sink = sink(to())) {
      Batch batch = batch(4);
      assertThatThrownBy(() -> sink.push(batch)).isInstanceOf(RetryableSinkException.class);
      sink.push(batch); // the lane's retry of the same batch
    }

    assertThat(otlp.exportSizes()).containsExactly(4, 2, 2, 2);
    assertThat(otlp.records())
        .extracting(ReceivedLogRecord::body)
        .containsExactly("line-0", "line-1", "line-2", "POISON line-3");
  }

  List<JsonNode> deadLetters() throws Exception {
    Path file = dir.resolve("dead.jsonl");
    if (!Files.exists(file)) {
      return List.of();
    }
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      out.add(JSON.readTree(line));
    }
    return out;
  }
}
