package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.keyed;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.loki.LokiConfigs;
import io.sf2loki.loki.LokiSink;
import io.sf2loki.loki.RecordingSleeper;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.Source.Lane;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.EntryRejection;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole path over real HTTP: sources → lanes → LokiSink → fake Loki, with the checkpoint store
 * checking at every commit that nothing before the committed value is missing from Loki (invariant
 * 1), under several fault scripts.
 */
class PipelineLokiTest {

  static final String[] KEYS = {"elf:Login", "elf:API", "objects:LoginEvent"};
  static final int PER_KEY = 60;

  final FakeLoki loki = startLoki();
  final FakeCheckpointStore store = new FakeCheckpointStore();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  static FakeLoki startLoki() {
    try {
      return FakeLoki.start();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @AfterEach
  void close() {
    loki.close();
  }

  static boolean poison(int seq) {
    return seq % 17 == 5;
  }

  static LogEntry entry(String key, int seq) {
    LogEntry e = keyed("eventlogfile", key, seq);
    return poison(seq) ? e.withLine(e.line() + " POISON") : e;
  }

  static Stream<Arguments> faultScripts() {
    return Stream.of(
        Arguments.of(Named.<Consumer<FakeLoki>>of("no faults", l -> {})),
        Arguments.of(
            Named.<Consumer<FakeLoki>>of(
                "429 with Retry-After, then 5xx",
                l -> {
                  l.addFault(Fault.status(429, "1", 3));
                  l.addFault(Fault.status(503, 4));
                })),
        Arguments.of(
            Named.<Consumer<FakeLoki>>of(
                "disconnects, auth failure and latency",
                l -> {
                  l.addFault(Fault.reset(2));
                  l.addFault(Fault.status(401, 2));
                  l.addFault(Fault.latency(Duration.ofMillis(50), 3));
                  l.addFault(Fault.status(500, 7));
                })));
  }

  @ParameterizedTest
  @MethodSource("faultScripts")
  void checkpointNeverAdvancesPastAnUndeliveredEntry(Consumer<FakeLoki> script) throws Exception {
    script.accept(loki);
    loki.rejectEntries(new EntryRejection("POISON", 400));
    store.beforeCommit(this::assertDeliveredUpTo);
    List<ScriptedSource> sources = new ArrayList<>();
    for (String key : KEYS) {
      sources.add(new ScriptedSource(key, Lane.BULK, PER_KEY, i -> entry(key, i), false));
    }

    PipelineOutcome outcome;
    try (LokiSink sink =
        LokiSink.builder(LokiConfigs.to(loki.baseUri()).build(), registry, Clock.systemUTC())
            .sleeper(new RecordingSleeper())
            .build()) {
      outcome =
          Runs.start(Runs.fast(sources, sink, store, new FakeTerm(1)).build())
              .outcome()
              .get(TestTiming.seconds(60).toMillis(), TimeUnit.MILLISECONDS);
    }

    assertThat(outcome).isEqualTo(new PipelineOutcome.Completed());
    for (String key : KEYS) {
      assertThat(store.loadAll()).containsEntry(key, Integer.toString(PER_KEY - 1));
    }
    long poisoned =
        java.util.stream.IntStream.range(0, PER_KEY).filter(PipelineLokiTest::poison).count();
    assertThat(Set.copyOf(loki.lines())).hasSize((int) (KEYS.length * (PER_KEY - poisoned)));
    assertThat(registry.find("sf2loki_loki_entries_dropped").counter().count())
        .isEqualTo(KEYS.length * poisoned);
  }

  /** Every entry of the key up to the committed value is in Loki, or was a counted poison drop. */
  private void assertDeliveredUpTo(Map<String, String> updates) {
    Set<String> stored = new HashSet<>(loki.lines());
    updates.forEach(
        (key, value) -> {
          for (int seq = 0; seq <= Integer.parseInt(value); seq++) {
            if (!poison(seq)) {
              assertThat(stored).as("committed %s=%s", key, value).contains(key + "#" + seq);
            }
          }
        });
  }
}
