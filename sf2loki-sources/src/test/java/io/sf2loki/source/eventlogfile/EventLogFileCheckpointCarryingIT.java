package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.testkit.salesforce.LogFileCsv;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Checkpoint carrying of salesforce-api.md §7.4: which entry carries which cursor. */
class EventLogFileCheckpointCarryingIT {

  private static final String KEY = "eventlogfile:Login";
  private final ElfFixture fx = new ElfFixture();

  @AfterEach
  void close() throws Exception {
    fx.close();
  }

  private RecordingSourceContext cycle(EventLogFileConfig config, String committed)
      throws Exception {
    RecordingSourceContext ctx = new RecordingSourceContext();
    if (committed != null) {
      ctx.committed(KEY, committed);
    }
    fx.source(config).cycleOnce(ctx);
    return ctx;
  }

  private RecordingSourceContext cycle(String committed) throws Exception {
    return cycle(ElfFixture.config(List.of("Login")), committed);
  }

  private static ElfCheckpoint cursorOf(LogEntry e) {
    return ElfCheckpoint.parse(e.checkpoint().orElseThrow().value());
  }

  private List<String> expectedLines(LogFileSpec f) {
    LogFileCsv csv = fx.sf.csv(f);
    List<String> lines = new ArrayList<>();
    for (long i = 0; i < f.rows(); i++) {
      lines.add(CanonicalJson.write(csv.expectedRow(i)));
    }
    return lines;
  }

  private static List<String> lines(List<LogEntry> entries) {
    return entries.stream().map(LogEntry::line).toList();
  }

  /** Drops every row whose event hour is {@code f}'s: all rows of one file, none of the others. */
  private static EventLogFileConfig droppingRowsOf(LogFileSpec f) {
    String hour =
        DateTimeFormatter.ofPattern("yyyyMMddHH").withZone(ZoneOffset.UTC).format(f.logDate());
    return ElfFixture.bind(
        "sources.eventlogfile { event_types = [Login], settle_window = 0s,"
            + " transforms = [{action = drop_row, match = {TIMESTAMP = \""
            + hour
            + "*\"}}] }");
  }

  @Test
  void zeroRowFileIsRecordedAsSeenWithoutAdvancingTheWatermark() throws Exception {
    LogFileSpec a = fx.file("Login", 50, 3);
    LogFileSpec empty = fx.file("Login", 30, 0);
    RecordingSourceContext ctx = cycle(null);

    assertThat(ctx.rows()).hasSize(3);
    ElfCheckpoint end = ElfCheckpoint.parse(ctx.checkpointOnlyTokens().get(0).value());
    assertThat(end.watermark()).isEqualTo(a.createdDate());
    assertThat(end.contains(empty.id(), empty.createdDate())).isTrue();
    assertThat(ctx.deliverAll()).containsEntry(KEY, end.format());
  }

  @Test
  void zeroRowFileIsNotDownloadedAgainNextCycleNorAfterARestart() throws Exception {
    String watermark =
        Soql.datetimeLiteral(
            Instant.now().minus(Duration.ofHours(2)).truncatedTo(ChronoUnit.SECONDS));
    LogFileSpec empty = fx.file("Login", 30, 0);
    EventLogFileSource source = fx.source(ElfFixture.config(List.of("Login")));
    RecordingSourceContext first = new RecordingSourceContext();
    first.committed(KEY, ElfCheckpoint.initial(watermark).format());
    source.cycleOnce(first);
    source.cycleOnce(first);
    RecordingSourceContext restarted = cycle(first.deliverAll().get(KEY));

    assertThat(fx.sf.stats().downloadsStarted(empty.id())).isEqualTo(1);
    assertThat(first.checkpointOnlyTokens()).hasSize(1); // the second cycle had nothing to carry
    assertThat(restarted.entries()).isEmpty();
    assertThat(fx.sf.queries().get(fx.sf.queries().size() - 1))
        .contains("CreatedDate >= " + watermark + " ");
  }

  @Test
  void fileListedLateWithACreatedDateBeforeAZeroRowFileIsStillRead() throws Exception {
    fx.file("Login", 20, 0);
    RecordingSourceContext first = cycle(null);
    LogFileSpec late = fx.file("Login", 40, 4); // became visible after the empty, newer one
    RecordingSourceContext second = cycle(first.deliverAll().get(KEY));
    assertThat(lines(second.rows())).containsExactlyElementsOf(expectedLines(late));
  }

  @Test
  void zeroRowFilesFillingWholePagesDoNotStallTheListing() throws Exception {
    EventLogFileConfig pagesOfTwo = ElfFixture.config(List.of("Login"), 2, Duration.ZERO);
    fx.file("Login", 50, 2);
    fx.file("Login", 40, 0);
    fx.file("Login", 35, 0);
    fx.file("Login", 30, 0);
    RecordingSourceContext first = cycle(pagesOfTwo, null);
    LogFileSpec next = fx.file("Login", 20, 3);
    RecordingSourceContext second = cycle(pagesOfTwo, first.deliverAll().get(KEY));
    assertThat(lines(second.rows())).containsExactlyElementsOf(expectedLines(next));
  }

  @Test
  void filesWhoseRowsAreAllDroppedAreCarriedByOneEndOfTypeTokenNotOnePerFile() throws Exception {
    Instant created = Instant.now().minus(Duration.ofMinutes(150));
    Instant hour = created.truncatedTo(ChronoUnit.HOURS);
    LogFileSpec d1 = fx.sf.addLogFile("Login", "Hourly", hour, created, 3);
    LogFileSpec d2 = fx.sf.addLogFile("Login", "Hourly", hour, created.plusSeconds(60), 2);
    RecordingSourceContext ctx = cycle(droppingRowsOf(d1), null);

    assertThat(ctx.entries()).hasSize(1);
    ElfCheckpoint end = ElfCheckpoint.parse(ctx.checkpointOnlyTokens().get(0).value());
    assertThat(end.contains(d1.id(), d1.createdDate())).isTrue();
    assertThat(end.contains(d2.id(), d2.createdDate())).isTrue();
    assertThat(end.watermark()).isEqualTo(d2.createdDate());
  }

  @Test
  void allDroppedFilesAdvanceRidesOnTheNextFilesRows() throws Exception {
    LogFileSpec dropped = fx.file("Login", 150, 3);
    LogFileSpec kept = fx.file("Login", 30, 2);
    RecordingSourceContext ctx = cycle(droppingRowsOf(dropped), null);

    assertThat(ctx.entries()).hasSize(2).noneMatch(LogEntry::isCheckpointOnly);
    ElfCheckpoint preFile = cursorOf(ctx.rows().get(0));
    assertThat(preFile.contains(dropped.id(), dropped.createdDate())).isTrue();
    assertThat(preFile.contains(kept.id(), kept.createdDate())).isFalse();
    assertThat(cursorOf(ctx.rows().get(1)).contains(kept.id(), kept.createdDate())).isTrue();
  }

  @Test
  void onlyAFilesLastRowEndsItsUnit() throws Exception {
    fx.file("Login", 50, 3);
    fx.file("Login", 30, 2);

    List<LogEntry> rows = cycle(null).rows();

    assertThat(rows)
        .extracting(LogEntry::endsUnit)
        .containsExactly(false, false, true, false, true);
  }

  @Test
  void crashBeforeAFilesLastRowReplaysTheWholeFileAndAfterItNothing() throws Exception {
    LogFileSpec e = fx.file("Login", 50, 3);
    LogFileSpec f = fx.file("Login", 30, 5);
    List<LogEntry> emitted = cycle(null).entries();
    assertThat(emitted).hasSize(8);

    for (int delivered = 3; delivered <= 8; delivered++) { // E is complete; F is cut anywhere
      String committed = emitted.get(delivered - 1).checkpoint().orElseThrow().value();
      RecordingSourceContext restarted = cycle(committed);
      assertThat(lines(restarted.rows()))
          .as("restart after %d delivered entries", delivered)
          .containsExactlyElementsOf(delivered < 8 ? expectedLines(f) : List.of());
    }
    assertThat(fx.sf.stats().downloadsStarted(e.id())).isEqualTo(1);
  }

  @Test
  void stopMidFileQueuesNoAdvancePastThePreFileCheckpoint() throws Exception {
    LogFileSpec e = fx.file("Login", 50, 3);
    LogFileSpec f = fx.file("Login", 30, 5);
    RecordingSourceContext stopped = new RecordingSourceContext().stopAfterRows(5);
    fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(stopped);

    assertThat(stopped.entries()).hasSize(5).noneMatch(LogEntry::isCheckpointOnly);
    assertThat(stopped.rows().subList(2, 5))
        .allSatisfy(r -> assertThat(cursorOf(r).contains(e.id(), e.createdDate())).isTrue())
        .allSatisfy(r -> assertThat(cursorOf(r).contains(f.id(), f.createdDate())).isFalse());
    RecordingSourceContext restarted = cycle(stopped.deliverAll().get(KEY));
    assertThat(lines(restarted.rows())).containsExactlyElementsOf(expectedLines(f));
  }

  @Test
  void aFileCutShortByAStopIsAbandonedAsAUnit() throws Exception {
    fx.file("Login", 50, 3);
    fx.file("Login", 30, 5);
    RecordingSourceContext stopped = new RecordingSourceContext().stopAfterRows(5);

    fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(stopped);

    assertThat(stopped.unitsAbandoned()).isEqualTo(1);
  }

  @Test
  void filesReadToTheirEndAreNotAbandoned() throws Exception {
    fx.file("Login", 50, 3);
    fx.file("Login", 30, 5);

    assertThat(cycle(null).unitsAbandoned()).isZero();
  }
}
