package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.loki.PlacementLedger.Pin;
import io.sf2loki.loki.WindowPlan.Action;
import io.sf2loki.loki.WindowPlan.Placement;
import io.sf2loki.loki.WindowPlan.Reason;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayJournalTest {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);
  static final StringMap LOGIN = StringMap.of("event_type", "Login", "job", "sf2loki");

  @TempDir Path dir;

  Path file() {
    return dir.resolve("dead.jsonl");
  }

  static LogEntry record(long ts, String line) {
    return LogEntry.of(ts, LOGIN, line, Map.of("user_id", "005"), Optional.empty());
  }

  /** {@code e} re-stamped at {@code ts}, as the planner places a too-old entry. */
  static Pin restamped(LogEntry e, long ts) {
    LogEntry placed =
        LogEntry.of(ts, e.labels(), e.line(), Map.of("event_time", "then"), e.checkpoint());
    return new Pin(e, Optional.of(new Placement(e, placed, Reason.TOO_OLD, Action.RETIMESTAMPED)));
  }

  @Test
  void aRecordStoredIsKnownStoredByTheNextRun() throws Exception {
    LogEntry e;
    try (ReplayJournal journal = ReplayJournal.open(file(), CLOCK)) {
      e = journal.track(record(1, "a"));
      journal.placing(List.of(new Pin(e, Optional.empty())));
      journal.stored(List.of(e));
    }

    try (ReplayJournal next = ReplayJournal.open(file(), CLOCK)) {
      assertThat(next.isStored(next.track(record(1, "a")))).isTrue();
      assertThat(next.isStored(next.track(record(1, "b")))).isFalse();
    }
  }

  @Test
  void aPlacementPushedByAnEarlierRunIsPinnedAndNeverReleased() throws Exception {
    try (ReplayJournal journal = ReplayJournal.open(file(), CLOCK)) {
      LogEntry e = journal.track(record(1, "a"));
      journal.placing(List.of(restamped(e, 500)));
    }

    try (ReplayJournal next = ReplayJournal.open(file(), CLOCK)) {
      LogEntry e = next.track(record(1, "a"));
      Pin pin = next.pin(e).orElseThrow();
      assertThat(pin.placed().timestampNanos()).isEqualTo(500);
      assertThat(pin.placed().line()).isEqualTo("a");
      assertThat(pin.placed().metadata()).containsEntry("event_time", "then");
      assertThat(pin.moved().orElseThrow().action()).isEqualTo(Action.RETIMESTAMPED);
      assertThat(next.release(e)).isFalse();
      assertThat(next.pin(e)).isPresent();
    }
  }

  @Test
  void aPinOfThisRunIsReleasedOnlyWhileEveryPushOfItWasAnswered() throws Exception {
    try (ReplayJournal journal = ReplayJournal.open(file(), CLOCK)) {
      LogEntry answered = journal.track(record(1, "answered"));
      LogEntry lost = journal.track(record(2, "lost"));
      journal.placing(
          List.of(new Pin(answered, Optional.empty()), new Pin(lost, Optional.empty())));
      journal.unanswered(List.of(lost));

      assertThat(journal.release(answered)).isTrue();
      assertThat(journal.pin(answered)).isEmpty();
      assertThat(journal.release(lost)).isFalse();
    }

    try (ReplayJournal next = ReplayJournal.open(file(), CLOCK)) {
      assertThat(next.pin(next.track(record(1, "answered")))).isEmpty();
      assertThat(next.pin(next.track(record(2, "lost")))).isPresent();
    }
  }

  @Test
  void aLastLineCutShortByACrashIsCutOffAndTheJournalStillAppends() throws Exception {
    try (ReplayJournal journal = ReplayJournal.open(file(), CLOCK)) {
      LogEntry e = journal.track(record(1, "a"));
      journal.placing(List.of(new Pin(e, Optional.empty())));
    }
    Path path = ReplayJournal.pathFor(file());
    Files.writeString(path, "{\"stored\":\"ab", StandardOpenOption.APPEND);

    try (ReplayJournal next = ReplayJournal.open(file(), CLOCK)) {
      LogEntry e = next.track(record(1, "a"));
      assertThat(next.pin(e)).isPresent();
      next.stored(List.of(e));
    }

    assertThat(Files.readAllLines(path)).hasSize(2).last().asString().startsWith("{\"stored\":");
  }

  @Test
  void aLineThatIsNotTheJournalsFailsNamingTheLine() throws Exception {
    Path path = ReplayJournal.pathFor(file());
    Files.writeString(path, "{\"stored\":\"ab\"}\n{\"what\":1}\n{\"stored\":\"cd\"}\n");

    assertThatThrownBy(() -> ReplayJournal.open(file(), CLOCK))
        .isInstanceOf(ReplayJournal.CorruptJournalException.class)
        .hasMessageContaining("replay journal " + path + " line 2 is not a journal line");
  }

  @Test
  void aSecondReplayOfTheSameFileIsRefusedWhileOneRuns() throws Exception {
    try (ReplayJournal journal = ReplayJournal.open(file(), CLOCK)) {
      assertThatThrownBy(() -> ReplayJournal.open(file(), CLOCK))
          .hasMessageContaining("is locked: another replay of " + file() + " runs");
      assertThat(journal.path()).exists();
    }
  }

  @Test
  void theJournalIsReadableByItsOwnerOnlyAndHoldsNoLine() throws Exception {
    try (ReplayJournal journal = ReplayJournal.open(file(), CLOCK)) {
      LogEntry e = journal.track(record(1, "secret line"));
      journal.placing(List.of(restamped(e, 500)));
    }
    Path path = ReplayJournal.pathFor(file());

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path)))
        .isEqualTo("rw-------");
    assertThat(Files.readString(path, StandardCharsets.UTF_8)).doesNotContain("secret line");
  }

  @Test
  void aRecordsIdentityIsItsLabelsTimestampLineAndMetadata() {
    LogEntry e = record(1, "a");
    String id = JournalLines.identity(e);

    assertThat(JournalLines.identity(record(1, "a"))).isEqualTo(id);
    assertThat(JournalLines.identity(record(2, "a"))).isNotEqualTo(id);
    assertThat(JournalLines.identity(record(1, "b"))).isNotEqualTo(id);
    assertThat(
            JournalLines.identity(
                LogEntry.of(1, Map.of("job", "x"), "a", Map.of(), e.checkpoint())))
        .isNotEqualTo(
            JournalLines.identity(
                LogEntry.of(1, Map.of(), "a", Map.of("job", "x"), e.checkpoint())));
  }

  @Test
  void theDaemonsRotationTakesTheJournalAlongWithItsFile() throws Exception {
    DeadLetterFile deadLetters = new DeadLetterFile(file(), 400, CLOCK);
    deadLetters.append(record(1, "x".repeat(200)), "bad_request", 400, "no");
    try (ReplayJournal journal = ReplayJournal.open(file(), CLOCK)) {
      journal.stored(List.of(journal.track(record(1, "x".repeat(200)))));
    }

    deadLetters.append(record(2, "y".repeat(200)), "bad_request", 400, "no");

    Path rotated = dir.resolve("dead.jsonl.1");
    assertThat(ReplayJournal.pathFor(file())).doesNotExist();
    try (ReplayJournal journal = ReplayJournal.open(rotated, CLOCK)) {
      assertThat(journal.isStored(journal.track(record(1, "x".repeat(200))))).isTrue();
    }
  }
}
