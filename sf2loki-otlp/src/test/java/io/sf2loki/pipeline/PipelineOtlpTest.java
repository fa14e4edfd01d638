package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.keyed;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.LogEntry;
import io.sf2loki.otlp.OtlpConfigs;
import io.sf2loki.otlp.OtlpSink;
import io.sf2loki.spi.Source.Lane;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.otlp.FakeOtlpLogs;
import io.sf2loki.testkit.otlp.LokiOtlpRules;
import io.sf2loki.testkit.otlp.OtlpFault;
import io.sf2loki.testkit.otlp.ReceivedLogRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole path over real HTTP: sources → lanes → OtlpSink → a fake OTLP receiver decoding with
 * the official classes, with the checkpoint store checking at every commit that nothing before the
 * committed value is missing from the receiver (invariant 1).
 */
class PipelineOtlpTest {

  static final String[] KEYS = {"elf:Login", "elf:API", "objects:LoginEvent"};
  static final int PER_KEY = 60;

  @TempDir Path dir;

  final FakeCheckpointStore store = new FakeCheckpointStore();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  FakeOtlpLogs otlp;

  @AfterEach
  void close() {
    otlp.close();
  }

  static boolean poison(int seq) {
    return seq % 17 == 5;
  }

  static LogEntry entry(String key, int seq, boolean withPoison) {
    LogEntry e = keyed("eventlogfile", key, seq);
    return withPoison && poison(seq) ? e.withLine(e.line() + " POISON") : e;
  }

  PipelineOutcome run(boolean withPoison) throws Exception {
    store.beforeCommit(updates -> assertDeliveredUpTo(updates, withPoison));
    List<ScriptedSource> sources = new ArrayList<>();
    for (String key : KEYS) {
      sources.add(
          new ScriptedSource(key, Lane.BULK, PER_KEY, i -> entry(key, i, withPoison), false));
    }
    try (OtlpSink sink =
        new OtlpSink(
            OtlpConfigs.to(otlp.uri().resolve("/otlp"))
                .deadLetter(dir.resolve("dead.jsonl"))
                .build(),
            registry,
            Clock.systemUTC())) {
      return Runs.start(Runs.fast(sources, sink, store, new FakeTerm(1)).build())
          .outcome()
          .get(TestTiming.seconds(60).toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  @Test
  void everyEntryArrivesOnceWithTheMappedFieldsAndEveryKeyIsCommitted() throws Exception {
    otlp =
        FakeOtlpLogs.builder()
            .rules(LokiOtlpRules.promoting(Set.of("event_type", "source")))
            .start();

    assertThat(run(false)).isEqualTo(new PipelineOutcome.Completed());

    assertCommittedToTheEnd();
    List<ReceivedLogRecord> records = otlp.records();
    assertThat(records).hasSize(KEYS.length * PER_KEY);
    assertThat(records.stream().map(ReceivedLogRecord::body).distinct())
        .hasSize(KEYS.length * PER_KEY);
    assertThat(records)
        .allSatisfy(
            r -> {
              assertThat(r.resource()).containsEntry("service.name", "salesforce");
              assertThat(r.lokiLabels())
                  .containsEntry("source", "eventlogfile")
                  .containsEntry("event_type", "Login");
              assertThat(r.attributes()).containsEntry("job", "sf2loki");
              int seq = Integer.parseInt(r.body().substring(r.body().indexOf('#') + 1));
              assertThat(r.timeUnixNano()).isEqualTo(Runs.T0 + seq);
            });
  }

  @Test
  void throttlesAndOutagesAreRetriedNoSoonerThanRetryAfterAndLoseNothing() throws Exception {
    otlp = FakeOtlpLogs.start();
    otlp.inject(OtlpFault.throttled(1, 1));
    otlp.inject(OtlpFault.retryAfter(503, 1, 1));
    long start = System.nanoTime();

    assertThat(run(false)).isEqualTo(new PipelineOutcome.Completed());

    // the lane's own backoff is 10 ms: only the two Retry-After: 1 make the run this long
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofSeconds(2));
    assertThat(otlp.answers()).startsWith(429, 503);
    assertCommittedToTheEnd();
    assertThat(otlp.records()).hasSize(KEYS.length * PER_KEY);
    assertThat(otlp.records().stream().map(ReceivedLogRecord::body).distinct())
        .hasSize(KEYS.length * PER_KEY);
  }

  @Test
  void aPartialSuccessDeadLettersExactlyTheRejectedRecordsAndCommitsTheRest() throws Exception {
    otlp =
        FakeOtlpLogs.builder()
            .rejecting(r -> r.body().endsWith("POISON"), "entry rejected by tenant limits")
            .start();

    assertThat(run(true)).isEqualTo(new PipelineOutcome.Completed());

    assertCommittedToTheEnd();
    Set<String> poisoned = new HashSet<>();
    Set<String> delivered = new HashSet<>();
    for (String key : KEYS) {
      for (int seq = 0; seq < PER_KEY; seq++) {
        (poison(seq) ? poisoned : delivered).add(entry(key, seq, true).line());
      }
    }
    assertThat(otlp.records().stream().map(ReceivedLogRecord::body).distinct())
        .containsExactlyInAnyOrderElementsOf(delivered);
    List<String> dead = Files.readAllLines(dir.resolve("dead.jsonl"));
    assertThat(dead).hasSize(poisoned.size());
    assertThat(dead).allMatch(l -> l.contains("entry rejected by tenant limits"));
    long poisonPerKey = IntStream.range(0, PER_KEY).filter(PipelineOtlpTest::poison).count();
    assertThat(registry.find("sf2loki_loki_entries_dropped").counter().count())
        .isEqualTo(KEYS.length * poisonPerKey);
  }

  private void assertCommittedToTheEnd() {
    for (String key : KEYS) {
      assertThat(store.loadAll()).containsEntry(key, Integer.toString(PER_KEY - 1));
    }
  }

  /** Every entry of the key up to the committed value arrived, or was a counted poison drop. */
  private void assertDeliveredUpTo(Map<String, String> updates, boolean withPoison) {
    Set<String> stored = new HashSet<>();
    otlp.records().forEach(r -> stored.add(r.body()));
    updates.forEach(
        (key, value) -> {
          for (int seq = 0; seq <= Integer.parseInt(value); seq++) {
            if (!withPoison || !poison(seq)) {
              assertThat(stored).as("committed %s=%s", key, value).contains(key + "#" + seq);
            }
          }
        });
  }
}
