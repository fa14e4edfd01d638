package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.model.LogEntry;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLogFileSourceIT {

  private final ElfFixture fx = new ElfFixture();

  @AfterEach
  void close() throws Exception {
    fx.close();
  }

  private static List<String> lines(List<LogEntry> entries) {
    return entries.stream().map(LogEntry::line).toList();
  }

  @Test
  void deliversEveryRowOfEveryFileInOrderWithExactContent() throws Exception {
    LogFileSpec l1 = fx.file("Login", 50, 40);
    LogFileSpec a1 = fx.file("API", 45, 30);
    LogFileSpec l2 = fx.file("Login", 40, 25);
    RecordingSourceContext ctx = new RecordingSourceContext();
    fx.source(ElfFixture.config(List.of("Login", "API"))).cycleOnce(ctx);
    assertThat(lines(ctx.rowsOf("Login"))).containsExactlyElementsOf(fx.expectedLines(l1, l2));
    assertThat(lines(ctx.rowsOf("API"))).containsExactlyElementsOf(fx.expectedLines(a1));
    assertThat(ctx.rows().get(0).labels())
        .containsEntry("source", "eventlogfile")
        .containsEntry("job", "sf2loki")
        .containsKey("event_type");
  }

  @Test
  void entryTimeComesFromTheRow() throws Exception {
    LogFileSpec f = fx.file("Login", 30, 3);
    RecordingSourceContext ctx = new RecordingSourceContext();
    fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(ctx);
    long expected = fx.sf.csv(f).rowTime(1).toEpochMilli() * 1_000_000;
    assertThat(ctx.rows().get(1).timestampNanos()).isEqualTo(expected);
  }

  @Test
  void lastRowCarriesTheAdvancedCheckpointAndEveryEarlierRowThePreFileOne() throws Exception {
    LogFileSpec f = fx.file("Login", 30, 5);
    RecordingSourceContext ctx = new RecordingSourceContext();
    fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(ctx);
    List<LogEntry> all = ctx.entries();
    assertThat(all).hasSize(5).noneMatch(LogEntry::isCheckpointOnly);
    String before = all.get(0).checkpoint().orElseThrow().value();
    assertThat(all.subList(0, 4))
        .allSatisfy(e -> assertThat(e.checkpoint().orElseThrow().value()).isEqualTo(before));
    assertThat(ElfCheckpoint.parse(before).contains(f.id(), f.createdDate())).isFalse();
    LogEntry last = all.get(4);
    assertThat(last.checkpoint().orElseThrow().key()).isEqualTo("eventlogfile:Login");
    ElfCheckpoint after = ElfCheckpoint.parse(last.checkpoint().orElseThrow().value());
    assertThat(after.contains(f.id(), f.createdDate())).isTrue();
    assertThat(after.watermark()).isEqualTo(f.createdDate());
  }

  @Test
  void nextCycleOnlyReadsFilesThatAppearedMeanwhile() throws Exception {
    fx.file("Login", 30, 5);
    EventLogFileSource source = fx.source(ElfFixture.config(List.of("Login")));
    RecordingSourceContext ctx = new RecordingSourceContext();
    source.cycleOnce(ctx);
    LogFileSpec later = fx.file("Login", 10, 4);
    source.cycleOnce(ctx);
    assertThat(ctx.rows()).hasSize(9);
    assertThat(lines(ctx.rows().subList(5, 9))).containsExactlyElementsOf(fx.expectedLines(later));
  }

  @Test
  void restartAfterDeliveryResumesFromTheCommittedCheckpoint() throws Exception {
    fx.file("Login", 30, 5);
    RecordingSourceContext first = new RecordingSourceContext();
    fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(first);
    RecordingSourceContext second = new RecordingSourceContext();
    first.deliverAll().forEach(second::committed);
    fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(second);
    assertThat(second.rows()).isEmpty();
  }

  @Test
  void restartMidDrainLosesNothingAndRepeatsOnlyTheInterruptedFile() throws Exception {
    LogFileSpec f1 = fx.file("Login", 50, 10);
    LogFileSpec f2 = fx.file("Login", 40, 10);
    LogFileSpec f3 = fx.file("Login", 30, 10);
    RecordingSourceContext first = new RecordingSourceContext().stopAfterRows(15);
    fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(first);
    RecordingSourceContext second = new RecordingSourceContext();
    first.deliverAll().forEach(second::committed);
    fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(second);
    assertThat(lines(first.rows())).hasSize(15);
    assertThat(lines(second.rows())).containsExactlyElementsOf(fx.expectedLines(f2, f3));
    List<String> union = new ArrayList<>(lines(first.rows()).subList(0, 10));
    union.addAll(lines(second.rows()));
    assertThat(union).containsExactlyElementsOf(fx.expectedLines(f1, f2, f3));
  }

  @Test
  void backlogDrainsInOneCycleWhilePagesAreFull() throws Exception {
    for (int i = 0; i < 5; i++) {
      fx.file("Login", 50 - i, 2);
    }
    RecordingSourceContext ctx = new RecordingSourceContext();
    fx.source(ElfFixture.config(List.of("Login"), 2, Duration.ZERO)).cycleOnce(ctx);
    assertThat(ctx.rows()).hasSize(10);
    assertThat(fx.sf.queries()).hasSizeGreaterThanOrEqualTo(3);
  }

  @Test
  void moreFilesSharingOneCreatedDateThanAPageHoldsAreAllReadAcrossPages() throws Exception {
    java.time.Instant created = java.time.Instant.now().minusSeconds(3600);
    for (int i = 0; i < 3; i++) {
      fx.sf.addLogFile(
          "Login", "Hourly", created.truncatedTo(java.time.temporal.ChronoUnit.HOURS), created, 1);
    }
    RecordingSourceContext ctx = new RecordingSourceContext();
    fx.source(ElfFixture.config(List.of("Login"), 2, Duration.ZERO)).cycleOnce(ctx);
    assertThat(ctx.rows()).hasSize(3); // the next page starts after the last (CreatedDate, Id)
    assertThat(fx.sf.queries()).hasSize(2);
  }

  @Test
  void regeneratedDailyFileIsReadAgain() throws Exception {
    java.time.Instant day = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.DAYS);
    LogFileSpec f =
        new LogFileSpec(
            "0ATD00000000999AAA",
            "Login",
            "Daily",
            day.minus(Duration.ofDays(1)),
            java.time.Instant.now().minus(Duration.ofHours(3)),
            1,
            4,
            99,
            false);
    fx.sf.addLogFile(f);
    EventLogFileConfig daily =
        new EventLogFileConfig(
            List.of("Login"),
            "Daily",
            Duration.ofMinutes(10),
            Duration.ofDays(2),
            Duration.ZERO,
            1000,
            1,
            Duration.ofHours(24),
            "TIMESTAMP_DERIVED",
            65536,
            Optional.empty());
    EventLogFileSource source = fx.source(daily);
    RecordingSourceContext ctx = new RecordingSourceContext();
    source.cycleOnce(ctx);
    LogFileSpec regenerated =
        f.regenerated(java.time.Instant.now().minus(Duration.ofHours(1)), 6, 100);
    fx.sf.addLogFile(regenerated);
    source.cycleOnce(ctx);
    assertThat(lines(ctx.rows())).containsExactlyElementsOf(expectedLinesOf(f, regenerated));
  }

  private List<String> expectedLinesOf(LogFileSpec a, LogFileSpec b) {
    return fx.expectedLines(a, b);
  }

  @Test
  void filesProcessedRowsAndBytesAreCounted() throws Exception {
    LogFileSpec f = fx.file("Login", 30, 7);
    fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(new RecordingSourceContext());
    assertThat(fx.counter("sf2loki_eventlogfile_files_processed", "event_type", "Login"))
        .isEqualTo(1);
    assertThat(fx.counter("sf2loki_eventlogfile_rows_ingested", "event_type", "Login"))
        .isEqualTo(7);
    assertThat(fx.counter("sf2loki_eventlogfile_download_bytes", "event_type", "Login"))
        .isEqualTo(fx.sf.csv(f).byteLength());
  }

  @Test
  void largeFileIsStreamedThroughADiskSpoolNotHeldInMemory(@TempDir Path spoolDir)
      throws Exception {
    LogFileSpec big = fx.file("Login", 30, 60_000); // ~15 MB of CSV against a 64 KiB spool
    AtomicLong spooledFilesSeen = new AtomicLong(-1);
    RecordingSourceContext ctx =
        new RecordingSourceContext()
            .discardEntries()
            .onEmit(
                e -> {
                  if (spooledFilesSeen.get() < 0) {
                    spooledFilesSeen.set(count(spoolDir));
                  }
                });
    fx.source(ElfFixture.config(List.of("Login")), Optional.of(spoolDir)).cycleOnce(ctx);
    assertThat(ctx.rowCount()).isEqualTo(big.rows());
    assertThat(spooledFilesSeen.get()).isEqualTo(1); // the body sat on disk while rows streamed out
    assertThat(count(spoolDir)).isZero(); // and was deleted afterwards
    assertThat(fx.counter("sf2loki_eventlogfile_download_bytes", "event_type", "Login"))
        .isGreaterThan(10_000_000);
  }

  private static long count(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
