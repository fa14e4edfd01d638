package io.sf2loki.loki;

import static io.sf2loki.pipeline.Entries.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.testkit.loki.EntryRejection;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LokiSinkStatusTest {

  final FakeLoki loki = LokiSinkEncodingTest.start();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final RecordingSleeper sleeper = new RecordingSleeper();
  // Near the real now: the fake Loki checks entry ages against its own (real) clock.
  final Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

  @TempDir Path dir;

  @AfterEach
  void close() {
    loki.close();
  }

  LokiSink sink(LokiConfigs config) throws Exception {
    return LokiSink.builder(config.build(), registry, Clock.fixed(now, ZoneOffset.UTC))
        .sleeper(sleeper)
        .build();
  }

  static Batch batch(int n, String poisonAt) {
    List<LogEntry> entries = new ArrayList<>();
    IntStream.range(0, n)
        .forEach(
            i ->
                entries.add(
                    entry(
                        "eventlogfile",
                        "Login",
                        i,
                        (i + "").equals(poisonAt) ? "POISON" : "l" + i)));
    return new Batch(entries);
  }

  /** Entries of the test's Login stream dropped because Loki answered 400. */
  double droppedAsBadRequest() {
    return registry
        .counter(
            "sf2loki_loki_entries_dropped",
            "reason",
            "bad_request",
            "source",
            "eventlogfile",
            "event_type",
            "Login")
        .count();
  }

  /** Pushes {@code batch} until it is delivered, as the lane does; the failures seen on the way. */
  static List<RetryableSinkException> pushLikeALane(LokiSink sink, Batch batch) throws Exception {
    List<RetryableSinkException> failures = new ArrayList<>();
    for (int attempt = 1; attempt <= 20; attempt++) {
      try {
        sink.push(batch);
        return failures;
      } catch (RetryableSinkException e) {
        failures.add(e);
      }
    }
    throw new AssertionError("not delivered after 20 attempts: " + failures);
  }

  @Test
  void aThrottledPushIsOneAttemptHandedToTheLaneWithItsRetryAfter() throws Exception {
    loki.addFault(Fault.status(429, "7", 1));

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      assertThatThrownBy(() -> sink.push(batch(3, null)))
          .isInstanceOfSatisfying(
              RetryableSinkException.class,
              e -> {
                assertThat(e.status()).hasValue(429);
                assertThat(e.retryAfter()).contains(Duration.ofSeconds(7));
              });
    }

    assertThat(loki.pushes()).hasSize(1);
    assertThat(sleeper.waits()).isEmpty(); // the sink never waits: the lane owns the backoff
  }

  @Test
  void theLanesRetryOfTheSameBatchDeliversIt() throws Exception {
    loki.addFault(Fault.status(503, 2));

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      assertThat(pushLikeALane(sink, batch(3, null))).hasSize(2);
    }

    assertThat(loki.lines()).hasSize(3);
  }

  @Test
  void everyAnswerIsCountedByStatus() throws Exception {
    loki.addFault(Fault.status(429, 3));

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      pushLikeALane(sink, batch(3, null));
    }

    assertThat(registry.counter("sf2loki_loki_responses", "status", "429").count()).isEqualTo(3);
    assertThat(registry.counter("sf2loki_loki_responses", "status", "204").count()).isEqualTo(1);
  }

  @Test
  void pushAttemptsWithoutAnAnswerAreCountedByReason() throws Exception {
    loki.addFault(Fault.reset(2));

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      assertThat(pushLikeALane(sink, batch(50, null))).hasSize(2);
    }

    assertThat(loki.lines()).hasSize(50);
    assertThat(registry.find("sf2loki_loki_transport_errors").counters())
        .extracting(c -> c.getId().getTag("reason"))
        .containsOnly("connection_closed");
    assertThat(
            registry.find("sf2loki_loki_transport_errors").counters().stream()
                .mapToDouble(c -> c.count())
                .sum())
        .isEqualTo(2);
  }

  @Test
  void aConnectionRefusedIsCountedAsConnect() throws Exception {
    java.net.URI closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closed = java.net.URI.create("http://127.0.0.1:" + s.getLocalPort());
    }
    try (LokiSink sink = sink(LokiConfigs.to(closed))) {
      assertThatThrownBy(() -> sink.push(batch(1, null)))
          .isInstanceOf(RetryableSinkException.class);
    }

    assertThat(registry.counter("sf2loki_loki_transport_errors", "reason", "connect").count())
        .isEqualTo(1);
  }

  @Test
  void retryAfterAsAnHttpDateIsReadAgainstTheClock() throws Exception {
    String date =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            ZonedDateTime.ofInstant(now.plusSeconds(20), ZoneOffset.UTC));
    loki.addFault(Fault.status(503, date, 1));

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      assertThatThrownBy(() -> sink.push(batch(1, null)))
          .isInstanceOfSatisfying(
              RetryableSinkException.class,
              e -> assertThat(e.retryAfter()).contains(Duration.ofSeconds(20)));
    }
  }

  @Test
  void aServerErrorIsOneAttempt() throws Exception {
    loki.addFault(Fault.status(500, 10));

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      assertThatThrownBy(() -> sink.push(batch(2, null)))
          .isInstanceOfSatisfying(
              RetryableSinkException.class, e -> assertThat(e.status()).hasValue(500));
    }

    assertThat(loki.pushes()).hasSize(1);
  }

  @Test
  void slowResponseBeyondTheTimeoutIsRetryable() throws Exception {
    loki.addFault(Fault.latency(Duration.ofMillis(1500), 5));

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()).timeout(Duration.ofMillis(300)))) {
      assertThatThrownBy(() -> sink.push(batch(1, null)))
          .isInstanceOfSatisfying(
              RetryableSinkException.class, e -> assertThat(e.status()).isEmpty());
    }
  }

  @Test
  void unauthorizedIsRetryableAtOnceWithoutInternalRetries() throws Exception {
    for (int status : new int[] {401, 403, 404}) {
      loki.reset();
      loki.addFault(Fault.status(status, 1));
      try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
        assertThatThrownBy(() -> sink.push(batch(1, null)))
            .isInstanceOfSatisfying(
                RetryableSinkException.class, e -> assertThat(e.status()).hasValue(status));
      }
      assertThat(loki.pushes()).hasSize(1);
    }
    assertThat(sleeper.waits()).isEmpty();
  }

  @Test
  void unexpectedRedirectIsRetryable() throws Exception {
    loki.addFault(Fault.status(302, 1));

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      assertThatThrownBy(() -> sink.push(batch(1, null)))
          .isInstanceOf(RetryableSinkException.class);
    }
  }

  @Test
  void onePoisonEntryIsBisectedOutDroppedAndCountedWhileTheRestIsDelivered() throws Exception {
    loki.rejectEntries(new EntryRejection("POISON", 400));

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      sink.push(batch(10, "6"));
    }

    assertThat(loki.lines()).hasSize(9).doesNotContain("POISON");
    assertThat(droppedAsBadRequest()).isEqualTo(1);
  }

  @Test
  void retryAfterAFailurePartWayThroughABisectionDoesNotDropTheSameEntryTwice() throws Exception {
    loki.rejectEntries(new EntryRejection("POISON", 400));
    // Pushes 1-4 ([0-3] 400, [0,1] 400, [0] 400 → dropped, [1] ok) pass; [2,3] then fails once.
    loki.addFault(Fault.latency(Duration.ZERO, 4));
    loki.addFault(Fault.status(500, 1));
    Path dlq = dir.resolve("dead.jsonl");
    Batch batch = batch(4, "0");

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()).deadLetter(dlq))) {
      assertThatThrownBy(() -> sink.push(batch)).isInstanceOf(RetryableSinkException.class);
      sink.push(batch); // the lane retries the same batch
    }

    assertThat(loki.lines()).containsExactlyInAnyOrder("l1", "l2", "l3");
    assertThat(loki.pushes().get(loki.pushes().size() - 1).entryCount()).isEqualTo(2);
    assertThat(Files.readAllLines(dlq)).hasSize(1);
    assertThat(droppedAsBadRequest()).isEqualTo(1);
  }

  @Test
  void oversizedEntryIsDroppedAsOversized413AndWrittenToTheDeadLetterFile() throws Exception {
    loki.rejectEntries(new EntryRejection("POISON", 413));
    Path dlq = dir.resolve("dead.jsonl");

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()).deadLetter(dlq))) {
      sink.push(batch(5, "2"));
    }

    assertThat(loki.lines()).hasSize(4);
    List<String> dead = Files.readAllLines(dlq);
    assertThat(dead).hasSize(1);
    assertThat(dead.get(0)).contains("\"reason\":\"oversized_413\"", "\"line\":\"POISON\"");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dlq)))
        .isEqualTo("rw-------");
  }

  @Test
  void aDeadLetterFileThatCannotBeWrittenIsCountedAndThePushStillCompletes() throws Exception {
    loki.rejectEntries(new EntryRejection("POISON", 400));
    Path dlq = dir.resolve("removed-directory").resolve("dead.jsonl");

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()).deadLetter(dlq))) {
      sink.push(batch(3, "1"));
    }

    assertThat(loki.lines()).hasSize(2);
    assertThat(droppedAsBadRequest()).isEqualTo(1);
    assertThat(registry.counter("sf2loki_dead_letter_write_failures").count()).isEqualTo(1);
  }

  @Test
  void theDeadLetterFileIsRotatedBySize() throws Exception {
    loki.rejectEntries(new EntryRejection("POISON", 400));
    Path dlq = dir.resolve("dead.jsonl");
    LokiConfigs config = LokiConfigs.to(loki.baseUri()).deadLetter(dlq).deadLetterMaxBytes(600);

    try (LokiSink sink = sink(config)) {
      for (int i = 0; i < 5; i++) {
        sink.push(batch(2, "0"));
      }
    }

    Path rotated = dir.resolve("dead.jsonl.1");
    assertThat(Files.size(dlq)).isLessThanOrEqualTo(600);
    assertThat(Files.size(rotated)).isLessThanOrEqualTo(600);
    assertThat(Files.readAllLines(dlq)).isNotEmpty();
    assertThat(Files.readAllLines(rotated)).isNotEmpty().allMatch(l -> l.contains("POISON"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dlq)))
        .isEqualTo("rw-------");
  }

  @Test
  void singleRejectedEntryIsDroppedAndThePushReturnsNormally() throws Exception {
    loki.rejectEntries(new EntryRejection("POISON", 400));

    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      sink.push(batch(1, "0"));
    }

    assertThat(loki.lines()).isEmpty();
    assertThat(registry.find("sf2loki_loki_entries_dropped").counter().count()).isEqualTo(1);
  }
}
