package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.loki.TimeWindowConfig.LatePolicy;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.loki.LokiLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink of {@code deadletter replay} against the fake Loki, which drops exact duplicates as Loki
 * does: each run is a new sink over the reopened {@link ReplayJournal}, on one manual clock.
 */
class LokiSinkReplayTest {

  static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  static final StringMap LOGIN =
      StringMap.of("event_type", "Login", "job", "sf2loki", "source", "eventlogfile");

  final ManualClock clock = new ManualClock(NOW);
  final List<AutoCloseable> open = new ArrayList<>();
  FakeLoki loki;

  @TempDir Path dir;

  @BeforeEach
  void start() throws Exception {
    loki = FakeLoki.start(0, LokiLimits.defaults(), clock);
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    loki.close();
  }

  Path deadLetters() {
    return dir.resolve("dead.jsonl");
  }

  LokiConfigs config() {
    return LokiConfigs.to(loki.baseUri()).deadLetter(dir.resolve("dead.jsonl.rejected"));
  }

  ReplayJournal journal() throws Exception {
    ReplayJournal j = ReplayJournal.open(deadLetters(), clock);
    open.add(j);
    return j;
  }

  LokiSink sink(LokiConfigs config, PlacementLedger ledger) throws Exception {
    LokiSink s =
        LokiSink.builder(config.build(), new SimpleMeterRegistry(), clock)
            .sleeper(clock.sleeper())
            .placementLedger(ledger)
            .build();
    open.add(s);
    return s;
  }

  /** One run of a replay: the records, tracked by a reopened journal, pushed by a new sink. */
  ReplayJournal run(LokiConfigs config, LogEntry... records) throws Exception {
    ReplayJournal journal = journal();
    sink(config, journal).push(tracked(journal, records));
    journal.close();
    return journal;
  }

  static Batch tracked(ReplayJournal journal, LogEntry... records) {
    return new Batch(List.of(records).stream().map(journal::track).toList());
  }

  static LogEntry record(Instant at, String line) {
    return LogEntry.of(WindowPlanner.nanos(at), LOGIN, line, Map.of(), Optional.empty());
  }

  /** What the daemon pushes into the records' stream meanwhile. */
  void live(Instant at) throws Exception {
    sink(config(), PlacementLedger.NONE).push(new Batch(List.of(record(at, "live " + at))));
  }

  List<AcceptedEntry> copiesOf(String line) {
    return loki.entries().stream().filter(e -> e.line().equals(line)).toList();
  }

  /** A journal whose {@code stored} mark never gets written: the run dies after Loki's answer. */
  static PlacementLedger crashingBeforeTheMark(ReplayJournal journal) {
    return new PlacementLedger() {
      @Override
      public Optional<Pin> pin(LogEntry original) {
        return journal.pin(original);
      }

      @Override
      public boolean release(LogEntry original) {
        return journal.release(original);
      }

      @Override
      public void placing(List<Pin> pins) throws java.io.IOException {
        journal.placing(pins);
      }

      @Override
      public void unanswered(List<LogEntry> originals) {
        journal.unanswered(originals);
      }

      @Override
      public void stored(List<LogEntry> originals) {
        throw new IllegalStateException("killed between the push and the mark");
      }

      @Override
      public void unconfirmed(LogEntry original) {
        journal.unconfirmed(original);
      }
    };
  }

  /** A run that dies right after Loki stored its push, before the journal marks it. */
  void crashedRun(LokiConfigs config, LogEntry... records) throws Exception {
    ReplayJournal journal = journal();
    LokiSink sink = sink(config, crashingBeforeTheMark(journal));
    assertThatThrownBy(() -> sink.push(tracked(journal, records)))
        .hasMessage("killed between the push and the mark");
    journal.close();
  }

  @Test
  void aRecordOlderThanMaxAgeIsPushedWhereItWentBeforeSoLokiKeepsOneCopy() throws Exception {
    LogEntry old = record(NOW.minus(Duration.ofDays(8)), "{\"old\":1}");

    for (int run = 0; run < 3; run++) {
      run(config(), old);
      clock.advance(Duration.ofMinutes(10));
    }

    assertThat(copiesOf("{\"old\":1}")).hasSize(1);
    assertThat(loki.stats().duplicates()).isEqualTo(2);
  }

  @Test
  void aRunKilledBetweenThePushAndTheMarkLeavesOneCopyOnceRunAgain() throws Exception {
    LogEntry old = record(NOW.minus(Duration.ofDays(8)), "{\"old\":1}");
    crashedRun(config(), old);
    assertThat(copiesOf("{\"old\":1}")).hasSize(1);
    clock.advance(Duration.ofMinutes(30));

    ReplayJournal again = run(config(), old);

    assertThat(copiesOf("{\"old\":1}")).hasSize(1);
    try (ReplayJournal next = ReplayJournal.open(deadLetters(), clock)) {
      assertThat(next.isStored(next.track(old))).isTrue();
    }
    assertThat(again.unconfirmedCount()).isZero();
  }

  @Test
  void aRecordRestampedAsLateKeepsItsStampWhileTheStreamMovesOn() throws Exception {
    LokiConfigs config =
        config()
            .windows(
                new TimeWindowConfig(
                    Duration.ofMinutes(55),
                    Duration.ofMinutes(9),
                    Duration.ofDays(7),
                    LatePolicy.RETIMESTAMP,
                    3,
                    TimeWindowConfig.FuturePolicy.HOLD,
                    Duration.ofMinutes(1)));
    LogEntry late = record(NOW.minus(Duration.ofHours(3)), "{\"late\":1}");
    live(NOW);
    crashedRun(config, late);
    clock.advance(Duration.ofMinutes(5));
    live(NOW.plus(Duration.ofMinutes(5)));

    run(config, late);

    assertThat(copiesOf("{\"late\":1}"))
        .singleElement()
        .satisfies(e -> assertThat(e.metadata()).containsKey("event_time"));
  }

  @Test
  void aPushWhoseAnswerWasLostKeepsItsPlacementWhenRetriedLater() throws Exception {
    LogEntry old = record(NOW.minus(Duration.ofDays(8)), "{\"old\":1}");
    ReplayJournal journal = journal();
    LokiSink sink = sink(config(), journal);
    Batch batch = tracked(journal, old);
    loki.addFault(Fault.lostAnswer(1));
    assertThatThrownBy(() -> sink.push(batch)).isInstanceOf(RetryableSinkException.class);
    clock.advance(Duration.ofMinutes(5)); // the plan is made again

    sink.push(batch);

    assertThat(copiesOf("{\"old\":1}")).hasSize(1);
  }

  @Test
  void aLateRecordIsRoutedOnItsFirstReplayAndPinnedThere() throws Exception {
    live(NOW);
    LogEntry late = record(NOW.minus(Duration.ofHours(3)), "{\"late\":1}");

    run(config(), late);

    assertThat(copiesOf("{\"late\":1}"))
        .singleElement()
        .satisfies(e -> assertThat(e.labels()).containsEntry("late", "1"));
    try (ReplayJournal next = ReplayJournal.open(deadLetters(), clock)) {
      assertThat(next.pin(next.track(late)).orElseThrow().placed().labels())
          .containsEntry("late", "1");
    }
  }

  @Test
  void aPinLokiNowRefusesIsNotPlacedAnewButLeftUnconfirmed() throws Exception {
    LogEntry old = record(NOW.minus(Duration.ofDays(8)), "{\"old\":1}");
    crashedRun(config(), old);
    clock.advance(Duration.ofDays(8)); // the stamp it was given is now too old as well

    ReplayJournal again = run(config(), old);

    assertThat(copiesOf("{\"old\":1}")).hasSize(1);
    assertThat(again.unconfirmedCount()).isEqualTo(1);
    assertThat(Files.readAllLines(dir.resolve("dead.jsonl.rejected")))
        .singleElement()
        .asString()
        .contains("\"reason\":\"unconfirmed\"")
        .contains("an earlier replay pushed them stamped ")
        .contains("check whether Loki holds them");
  }
}
