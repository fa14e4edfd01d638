package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.model.LogEntry;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The window bounds: start (lower, and the first run's start) and until (upper, finite run). */
class EventLogFileWindowIT {

  private final ElfFixture fx = new ElfFixture();
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  @AfterEach
  void close() throws Exception {
    fx.close();
  }

  private LogFileSpec fileCreated(Instant created, long rows) {
    return fx.sf.addLogFile(
        "Login", "Hourly", created.truncatedTo(ChronoUnit.HOURS), created, rows);
  }

  private EventLogFileSource source(Optional<Instant> start, Optional<Instant> until) {
    return fx.source(
        ElfFixture.bounded(ElfFixture.config(List.of("Login")), new ElfWindow(start, until)));
  }

  private static List<String> lines(RecordingSourceContext ctx) {
    return ctx.rows().stream().map(LogEntry::line).toList();
  }

  @Test
  void filesCreatedAtOrAfterUntilAreNeverReadAndTheBoundedSourceFinishesWithoutWaiting()
      throws Exception {
    LogFileSpec inside = fileCreated(now.minus(3, ChronoUnit.HOURS), 4);
    LogFileSpec atBound = fileCreated(now.minus(2, ChronoUnit.HOURS), 5);
    fileCreated(now.minus(1, ChronoUnit.HOURS), 6);
    RecordingSourceContext ctx = new RecordingSourceContext().cycles(5);

    source(Optional.empty(), Optional.of(atBound.createdDate())).run(ctx);

    assertThat(lines(ctx)).containsExactlyElementsOf(fx.expectedLines(inside));
    assertThat(ctx.waits()).as("finished after its first cycle, no poll wait").isEmpty();
  }

  @Test
  void anUnboundedSourceKeepsPollingAfterReadingEverything() throws Exception {
    fileCreated(now.minus(3, ChronoUnit.HOURS), 4);
    RecordingSourceContext ctx = new RecordingSourceContext().cycles(2);

    source(Optional.empty(), Optional.empty()).run(ctx);

    assertThat(ctx.waits()).hasSize(2);
  }

  @Test
  void anUntilAheadOfSalesforcesClockKeepsTheSourcePolling() throws Exception {
    fileCreated(now.minus(3, ChronoUnit.HOURS), 4);
    RecordingSourceContext ctx = new RecordingSourceContext().cycles(2);

    source(Optional.empty(), Optional.of(now.plus(1, ChronoUnit.HOURS))).run(ctx);

    assertThat(ctx.rows()).hasSize(4);
    assertThat(ctx.waits()).hasSize(2);
  }

  @Test
  void theFirstRunStartsAtStartInsteadOfTheLookback() throws Exception {
    fileCreated(now.minus(5, ChronoUnit.HOURS), 3);
    LogFileSpec atStart = fileCreated(now.minus(4, ChronoUnit.HOURS), 2);
    RecordingSourceContext ctx = new RecordingSourceContext();

    source(Optional.of(atStart.createdDate()), Optional.empty()).cycleOnce(ctx);

    assertThat(lines(ctx)).containsExactlyElementsOf(fx.expectedLines(atStart));
  }

  @Test
  void aStoredCursorBehindStartMovesUpToIt() throws Exception {
    fileCreated(now.minus(5, ChronoUnit.HOURS), 3);
    LogFileSpec afterStart = fileCreated(now.minus(3, ChronoUnit.HOURS), 2);
    RecordingSourceContext ctx =
        new RecordingSourceContext()
            .committed(
                ElfCursors.key("Login"),
                "{\"ids\": [], \"last_created\": \"" + now.minus(10, ChronoUnit.HOURS) + "\"}");

    source(Optional.of(now.minus(4, ChronoUnit.HOURS)), Optional.empty()).cycleOnce(ctx);

    assertThat(lines(ctx)).containsExactlyElementsOf(fx.expectedLines(afterStart));
  }

  @Test
  void aStoredCursorAtOrAfterUntilIsNotThisWindowsProgressSoTheWindowIsReadFromStart()
      throws Exception {
    LogFileSpec inside = fileCreated(now.minus(9, ChronoUnit.HOURS), 3);
    LogFileSpec later = fileCreated(now.minus(5, ChronoUnit.HOURS), 2);
    RecordingSourceContext ctx =
        new RecordingSourceContext()
            .committed(
                ElfCursors.key("Login"),
                "{\"ids\": [[\""
                    + later.id()
                    + "\", \""
                    + later.createdDate()
                    + "\"]], \"last_created\": \""
                    + later.createdDate()
                    + "\"}"); // a later window's progress

    source(
            Optional.of(now.minus(10, ChronoUnit.HOURS)),
            Optional.of(now.minus(7, ChronoUnit.HOURS)))
        .cycleOnce(ctx);

    assertThat(lines(ctx)).containsExactlyElementsOf(fx.expectedLines(inside));
  }

  @Test
  void aStoredCursorInsideTheWindowIsWhereTheRunResumes() throws Exception {
    LogFileSpec done = fileCreated(now.minus(4, ChronoUnit.HOURS), 3);
    LogFileSpec next = fileCreated(now.minus(3, ChronoUnit.HOURS), 2);
    RecordingSourceContext first = new RecordingSourceContext();
    EventLogFileSource source =
        source(Optional.of(now.minus(5, ChronoUnit.HOURS)), Optional.of(next.createdDate()));
    source.cycleOnce(first);
    String cursor = first.deliverAll().get(ElfCursors.key("Login"));
    RecordingSourceContext resumed =
        new RecordingSourceContext().committed(ElfCursors.key("Login"), cursor);

    source(Optional.of(now.minus(5, ChronoUnit.HOURS)), Optional.empty()).cycleOnce(resumed);

    assertThat(lines(first)).containsExactlyElementsOf(fx.expectedLines(done));
    assertThat(lines(resumed)).containsExactlyElementsOf(fx.expectedLines(next));
  }
}
