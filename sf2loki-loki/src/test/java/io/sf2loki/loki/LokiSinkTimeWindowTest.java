package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.loki.TimeWindowConfig.LatePolicy;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
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
import org.slf4j.LoggerFactory;

/** The sink against the fake Loki enforcing Loki's real time windows, on one manual clock. */
class LokiSinkTimeWindowTest {

  static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  static final StringMap LOGIN =
      StringMap.of("event_type", "Login", "job", "sf2loki", "source", "eventlogfile");

  final ManualClock clock = new ManualClock(NOW);
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final ListAppender<ILoggingEvent> log = new ListAppender<>();
  final List<LokiSink> sinks = new ArrayList<>();
  FakeLoki loki;

  @TempDir Path dir;

  @BeforeEach
  void start() throws Exception {
    loki = FakeLoki.start(0, LokiLimits.defaults(), clock);
    log.start();
    ((Logger) LoggerFactory.getLogger(LokiSink.class)).addAppender(log);
  }

  @AfterEach
  void stop() {
    ((Logger) LoggerFactory.getLogger(LokiSink.class)).detachAppender(log);
    sinks.forEach(LokiSink::close);
    loki.close();
  }

  LokiSink sink(LokiConfigs config) throws Exception {
    LokiSink s = LokiSink.builder(config.build(), registry, clock).sleeper(clock.sleeper()).build();
    sinks.add(s);
    return s;
  }

  LokiSink sink() throws Exception {
    return sink(LokiConfigs.to(loki.baseUri()));
  }

  /** {@code n} rows one second apart from {@code from}, lines prefixed with {@code name}. */
  static Batch rows(String name, Instant from, int n) {
    List<LogEntry> entries = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      entries.add(
          LogEntry.of(
              WindowPlanner.nanos(from.plusSeconds(i)),
              LOGIN,
              "{\"file\":\"" + name + "\",\"row\":" + i + "}",
              Map.of(),
              Optional.empty()));
    }
    return new Batch(entries);
  }

  static Instant hoursAgo(int h) {
    return NOW.minus(Duration.ofHours(h));
  }

  List<AcceptedEntry> stored(String lateValue) {
    return loki.entries().stream()
        .filter(e -> java.util.Objects.equals(e.labels().get("late"), lateValue))
        .toList();
  }

  double counter(String name, String... tags) {
    var c = registry.find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  double dropped() {
    return registry.find(LokiMetrics.ENTRIES_DROPPED).counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  @Test
  void aLateSequenceFileAfterANewerHourIsRoutedAndEveryRowStored() throws Exception {
    LokiSink sink = sink();
    sink.push(rows("hour-4", hoursAgo(4), 50));
    sink.push(rows("hour-6-seq-2", hoursAgo(6), 500));
    assertThat(stored(null)).hasSize(50);
    assertThat(stored("1")).hasSize(500);
    assertThat(loki.stats().rejected()).isZero();
    assertThat(loki.pushes()).hasSize(2);
    assertThat(dropped()).isZero();
    assertThat(
            counter(
                "sf2loki_loki_out_of_window_entries",
                "reason",
                "too_far_behind",
                "action",
                "routed"))
        .isEqualTo(500);
  }

  @Test
  void lateRowsAreLoggedAsOneSummaryLinePerBatch() throws Exception {
    LokiSink sink = sink();
    sink.push(rows("hour-4", hoursAgo(4), 50));
    log.list.clear();
    sink.push(rows("hour-6-seq-2", hoursAgo(6), 500));
    assertThat(log.list).hasSize(1);
    assertThat(log.list.get(0).getLevel()).isEqualTo(Level.INFO);
    assertThat(log.list.get(0).getFormattedMessage())
        .contains("Routed to late=\"1\" 500 entries of {event_type=\"Login\"")
        .contains("2026-12-01T06:00:00Z to 2026-12-01T06:08:19Z")
        .contains("out_of_order_window (55m)");
  }

  @Test
  void aRestartedSinkLearnsWhereTheStreamStandsFromLokisRejection() throws Exception {
    sink().push(rows("hour-4", hoursAgo(4), 50));
    LokiSink restarted = sink(); // knows nothing of the stream
    restarted.push(rows("hour-6-seq-2", hoursAgo(6), 500));
    assertThat(stored("1")).hasSize(500);
    assertThat(dropped()).isZero();
    assertThat(loki.pushes()).hasSize(3); // the first try, rejected; then routed at once
    assertThat(counter("sf2loki_loki_window_rejections", "reason", "too_far_behind")).isEqualTo(1);
  }

  @Test
  void aRejectionWhoseReplanDropsTheWholeBatchDeliversNothingAndDoesNotFail() throws Exception {
    // Regression: the replanned, empty batch was split by stream and failed the lane with an
    // IndexOutOfBoundsException, ending the pipeline.
    sink().push(rows("hour-4", hoursAgo(4), 50));
    LokiSink restarted =
        sink(
            LokiConfigs.to(loki.baseUri())
                .windows(TimeWindowConfig.defaults().withLatePolicy(LatePolicy.DROP)));
    restarted.push(rows("hour-6-seq-2", hoursAgo(6), 20)); // knows nothing of the stream
    assertThat(loki.entries()).hasSize(50);
    assertThat(counter("sf2loki_loki_window_rejections", "reason", "too_far_behind")).isEqualTo(1);
    assertThat(counter(LokiMetrics.ENTRIES_DROPPED, "reason", "too_far_behind")).isEqualTo(20);
  }

  static final StringMap API =
      StringMap.of("event_type", "API", "job", "sf2loki", "source", "eventlogfile");

  static Batch twoStreams(Instant login, Instant api, int n) {
    List<LogEntry> entries = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      entries.add(
          LogEntry.of(
              WindowPlanner.nanos(login.plusSeconds(i)),
              LOGIN,
              "login-" + i,
              Map.of(),
              Optional.empty()));
      entries.add(
          LogEntry.of(
              WindowPlanner.nanos(api.plusSeconds(i)),
              API,
              "api-" + i,
              Map.of(),
              Optional.empty()));
    }
    return new Batch(entries);
  }

  @Test
  void aRestartedSinkPushesUnconfirmedStreamsAloneSoNoLateEntryHidesBehindA204() throws Exception {
    sink().push(twoStreams(hoursAgo(4), hoursAgo(4), 20));
    // Loki reports only the last stream's too-far-behind entries: had both streams shared this
    // push, Login's late rows would be lost behind the 204 that API's on-time rows earn.
    sink().push(twoStreams(hoursAgo(7), hoursAgo(3), 30));
    assertThat(loki.entries()).hasSize(100);
    assertThat(stored("1")).extracting(AcceptedEntry::line).allMatch(l -> l.startsWith("login-"));
    assertThat(stored("1")).hasSize(30);
    assertThat(dropped()).isZero();
  }

  @Test
  void confirmedStreamsShareOnePush() throws Exception {
    LokiSink sink = sink();
    sink.push(twoStreams(hoursAgo(4), hoursAgo(4), 5));
    int before = loki.pushes().size();
    sink.push(twoStreams(hoursAgo(3), hoursAgo(3), 5));
    assertThat(before).isEqualTo(2);
    assertThat(loki.pushes()).hasSize(3);
  }

  @Test
  void aRetryAfterAPolicyDropAndA503CountsTheDropOnce() throws Exception {
    LokiSink sink =
        sink(
            LokiConfigs.to(loki.baseUri())
                .windows(TimeWindowConfig.defaults().withLatePolicy(LatePolicy.DROP)));
    sink.push(rows("hour-4", hoursAgo(4), 5));
    List<LogEntry> mixed = new ArrayList<>(rows("late", hoursAgo(6), 3).entries());
    mixed.addAll(rows("on-time", hoursAgo(3), 3).entries());
    Batch batch = new Batch(mixed);
    loki.addFault(io.sf2loki.testkit.loki.Fault.status(503, 1)); // one failed attempt
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> sink.push(batch))
        .isInstanceOf(io.sf2loki.spi.RetryableSinkException.class);
    sink.push(batch); // the lane's retry of the same batch
    assertThat(counter(LokiMetrics.ENTRIES_DROPPED, "reason", "too_far_behind")).isEqualTo(3);
    assertThat(loki.entries()).hasSize(8);
  }

  @Test
  void anEntryLokiKeepsRefusingIsKeptAndRetriedNotDropped() throws Exception {
    // The tenant keeps 2 days, sink.loki.max_age says 7: every re-timestamp is still too old.
    loki.close();
    loki =
        FakeLoki.start(
            0, LokiLimits.defaults().withRejectOldSamplesMaxAge(Duration.ofDays(2)), clock);
    LokiSink sink = sink();
    Batch old = rows("three days ago", NOW.minus(Duration.ofDays(3)), 1);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> sink.push(old))
        .isInstanceOf(io.sf2loki.spi.RetryableSinkException.class)
        .hasMessageContaining("keeps rejecting");
    assertThat(dropped()).isZero();
  }

  @Test
  void entriesLokiRejectsForGoodAreLoggedAsOneLinePerStreamAndBatch() throws Exception {
    loki.rejectEntries(new io.sf2loki.testkit.loki.EntryRejection("POISON", 400));
    List<LogEntry> entries = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      entries.add(
          LogEntry.of(
              WindowPlanner.nanos(hoursAgo(2).plusSeconds(i)),
              LOGIN,
              i % 10 == 0 ? "POISON " + i : "ok " + i,
              Map.of(),
              Optional.empty()));
    }
    sink().push(new Batch(entries));
    assertThat(loki.entries()).hasSize(36);
    assertThat(log.list).hasSize(1);
    assertThat(log.list.get(0).getLevel()).isEqualTo(Level.WARN);
    assertThat(log.list.get(0).getFormattedMessage())
        .startsWith("Dropped 4 entries of {event_type=\"Login\"")
        .contains("Loki rejected them for good (400");
    assertThat(counter(LokiMetrics.ENTRIES_DROPPED, "reason", "bad_request")).isEqualTo(4);
  }

  @Test
  void anotherWriterAheadInTheStreamTurnsItsRejectionIntoARouteNotALoss() throws Exception {
    LokiSink ours = sink();
    ours.push(rows("hour-4", hoursAgo(4), 10));
    sink().push(rows("other-writer", hoursAgo(1), 10)); // a second writer we do not know of
    ours.push(rows("hour-4-later", hoursAgo(4).plusSeconds(60), 100));
    assertThat(stored("1")).hasSize(100);
    assertThat(loki.entries()).hasSize(120);
    assertThat(dropped()).isZero();
  }

  @Test
  void aReplayOfADeliveredLateFileAfterARestartIsStoredOnceInLokisEyes() throws Exception {
    LokiSink sink = sink();
    sink.push(rows("hour-4", hoursAgo(4), 50));
    sink.push(rows("hour-6-seq-2", hoursAgo(6), 500));
    sink(LokiConfigs.to(loki.baseUri())).push(rows("hour-6-seq-2", hoursAgo(6), 500));
    assertThat(loki.entries()).hasSize(550);
    assertThat(loki.stats().duplicates()).isEqualTo(500);
  }

  @Test
  void aBackfillIntoAStreamHoldingNewerDataGoesForwardInItsLateStream() throws Exception {
    LokiSink sink = sink();
    sink.push(rows("live", hoursAgo(1), 10));
    for (int day = 6; day >= 1; day--) { // a past week, oldest first, a batch per day
      sink.push(rows("backfill-day-" + day, NOW.minus(Duration.ofDays(day)), 200));
    }
    assertThat(stored("1")).hasSize(1200);
    assertThat(loki.stats().rejected()).isZero();
  }

  LokiSink holdingUpTo(Duration maxHold) throws Exception {
    return sink(
        LokiConfigs.to(loki.baseUri()).windows(TimeWindowConfig.defaults().withMaxHold(maxHold)));
  }

  @Test
  void entriesAheadOfLokisGraceAreHeldBackUntilLokiAcceptsThem() throws Exception {
    holdingUpTo(Duration.ofMinutes(15))
        .push(rows("clock-ahead", NOW.plus(Duration.ofMinutes(20)), 60));
    assertThat(clock.sleeps()).containsExactly(Duration.ofMinutes(11).plusSeconds(59));
    assertThat(loki.entries()).hasSize(60);
    assertThat(loki.entries().get(0).timestampNanos())
        .isEqualTo(WindowPlanner.nanos(NOW.plus(Duration.ofMinutes(20))));
    assertThat(loki.stats().rejected()).isZero();
  }

  @Test
  void entriesFurtherAheadThanMaxHoldAreRetimestampedAndTheRestHeld() throws Exception {
    holdingUpTo(Duration.ofMinutes(15))
        .push(rows("far-ahead", NOW.plus(Duration.ofMinutes(20)), 300));
    assertThat(clock.sleeps()).containsExactly(Duration.ofMinutes(15));
    assertThat(loki.entries()).hasSize(300);
    assertThat(loki.entries().stream().filter(e -> e.metadata().containsKey("event_time")))
        .hasSize(59); // 24:01 .. 24:59 ahead: more than 9m grace + 15m hold
    assertThat(loki.stats().rejected()).isZero();
  }

  @Test
  void entriesOlderThanTheMaxAgeAreRetimestampedKeepingTheirEventTime() throws Exception {
    sink().push(rows("last-month", NOW.minus(Duration.ofDays(30)), 5));
    assertThat(loki.entries()).hasSize(5);
    AcceptedEntry first = loki.entries().get(0);
    assertThat(first.metadata()).containsEntry("event_time", "2026-11-01T12:00:00Z");
    assertThat(first.timestampNanos())
        .isEqualTo(WindowPlanner.nanos(NOW.minus(Duration.ofDays(7)).plus(Duration.ofHours(1))));
  }

  @Test
  void dropPolicyDropsCountsAndDeadLettersLateRowsWithOneWarning() throws Exception {
    Path deadLetter = dir.resolve("dead.jsonl");
    LokiSink sink =
        sink(
            LokiConfigs.to(loki.baseUri())
                .deadLetter(deadLetter)
                .windows(TimeWindowConfig.defaults().withLatePolicy(LatePolicy.DROP)));
    sink.push(rows("hour-4", hoursAgo(4), 50));
    log.list.clear();
    sink.push(rows("hour-6-seq-2", hoursAgo(6), 500));
    assertThat(loki.entries()).hasSize(50);
    assertThat(counter(LokiMetrics.ENTRIES_DROPPED, "reason", "too_far_behind")).isEqualTo(500);
    assertThat(Files.readAllLines(deadLetter)).hasSize(500);
    assertThat(log.list).hasSize(1);
    assertThat(log.list.get(0).getLevel()).isEqualTo(Level.WARN);
    assertThat(log.list.get(0).getFormattedMessage())
        .startsWith("Dropped 500 entries")
        .contains("late_policy = drop");
  }
}
