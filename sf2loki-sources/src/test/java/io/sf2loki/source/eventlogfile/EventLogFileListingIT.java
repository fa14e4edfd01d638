package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.testkit.salesforce.Fault;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One listing query per cycle serves every event type; each type keeps its own cursor. */
class EventLogFileListingIT {

  private final ElfFixture fx = new ElfFixture();
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  @AfterEach
  void close() throws Exception {
    fx.close();
  }

  private LogFileSpec file(String type, Instant created, long rows) {
    return fx.sf.addLogFile(type, "Hourly", created.truncatedTo(ChronoUnit.HOURS), created, rows);
  }

  /**
   * {@code n} Login files of {@code rows} rows, a minute apart, the first {@code minutesAgo} old.
   */
  private LogFileSpec[] logins(int n, int minutesAgo, long rows) {
    LogFileSpec[] out = new LogFileSpec[n];
    for (int i = 0; i < n; i++) {
      out[i] = file("Login", now.minus(minutesAgo - i, ChronoUnit.MINUTES), rows);
    }
    return out;
  }

  private static String cursorAt(Instant watermark) {
    return ElfCheckpoint.initial(Soql.datetimeLiteral(watermark)).format();
  }

  private List<String> listings() {
    return fx.sf.queries().stream().filter(q -> q.startsWith("SELECT Id,")).toList();
  }

  @Test
  void oneListingQueryPerCycleServesEveryType() throws Exception {
    LogFileSpec login = fx.file("Login", 50, 3);
    LogFileSpec api = fx.file("API", 40, 2);
    LogFileSpec uri = fx.file("URI", 30, 4);
    RecordingSourceContext ctx = new RecordingSourceContext();

    fx.source(ElfFixture.config(List.of("Login", "API", "URI"))).cycleOnce(ctx);

    assertThat(fx.sf.queries()).hasSize(1);
    assertThat(ctx.linesOf("Login")).containsExactlyElementsOf(fx.expectedLines(login));
    assertThat(ctx.linesOf("API")).containsExactlyElementsOf(fx.expectedLines(api));
    assertThat(ctx.linesOf("URI")).containsExactlyElementsOf(fx.expectedLines(uri));
  }

  @Test
  void typesSharingAWatermarkShareOneTermOfTheQuery() throws Exception {
    RecordingSourceContext ctx = new RecordingSourceContext();
    Instant older = now.minus(5, ChronoUnit.HOURS);
    ctx.committed(ElfCursors.key("API"), cursorAt(older));
    ctx.committed(ElfCursors.key("URI"), cursorAt(older));
    ctx.committed(ElfCursors.key("Login"), cursorAt(now.minus(1, ChronoUnit.HOURS)));

    fx.source(ElfFixture.config(List.of("Login", "API", "URI"))).cycleOnce(ctx);

    assertThat(fx.sf.queries())
        .containsExactly(
            "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence,"
                + "LogFileFieldNames,LogFileFieldTypes FROM EventLogFile WHERE Interval='Hourly'"
                + " AND ((CreatedDate >= "
                + Soql.datetimeLiteral(older)
                + " AND EventType IN ('API','URI')) OR (CreatedDate >= "
                + Soql.datetimeLiteral(now.minus(1, ChronoUnit.HOURS))
                + " AND EventType='Login')) ORDER BY CreatedDate, Id LIMIT 1000");
  }

  @Test
  void eachTypeIsReadFromItsOwnWatermarkNotTheOldest() throws Exception {
    file("Login", now.minus(4, ChronoUnit.HOURS), 2); // before Login's cursor: read already
    LogFileSpec apiOld = file("API", now.minus(3, ChronoUnit.HOURS), 3);
    LogFileSpec loginNew = file("Login", now.minus(1, ChronoUnit.HOURS), 4);
    RecordingSourceContext ctx = new RecordingSourceContext();
    ctx.committed(ElfCursors.key("Login"), cursorAt(now.minus(2, ChronoUnit.HOURS)));
    ctx.committed(ElfCursors.key("API"), cursorAt(now.minus(5, ChronoUnit.HOURS)));

    fx.source(ElfFixture.config(List.of("Login", "API"))).cycleOnce(ctx);

    assertThat(ctx.linesOf("Login")).containsExactlyElementsOf(fx.expectedLines(loginNew));
    assertThat(ctx.linesOf("API")).containsExactlyElementsOf(fx.expectedLines(apiOld));
  }

  @Test
  void aPageBoundaryInsideOneTypesFilesResumesRightAfterTheLastListedFile() throws Exception {
    LogFileSpec[] logins = logins(7, 60, 2);
    LogFileSpec api = file("API", now.minus(52, ChronoUnit.MINUTES), 3);
    LogFileSpec api2 = file("API", now.minus(10, ChronoUnit.MINUTES), 1);
    RecordingSourceContext ctx = new RecordingSourceContext();

    fx.source(ElfFixture.config(List.of("Login", "API"), 3, Duration.ZERO)).cycleOnce(ctx);

    assertThat(ctx.linesOf("Login")).containsExactlyElementsOf(fx.expectedLines(logins));
    assertThat(ctx.linesOf("API")).containsExactlyElementsOf(fx.expectedLines(api, api2));
    assertThat(fx.sf.queries()).hasSize(4); // 9 files, 3 a page: three full pages, then none
    assertThat(fx.sf.queries().get(1))
        .contains("AND (CreatedDate > ")
        .contains("AND Id > '" + logins[2].id() + "'");
  }

  @Test
  void aTypeWithABacklogOfManyRoundsDoesNotHoldBackTheOthersWithinTheCycle() throws Exception {
    LogFileSpec[] logins = logins(ElfListing.PAGES_PER_ROUND * 2 + 5, 300, 1); // three rounds
    LogFileSpec api = file("API", now.minus(20, ChronoUnit.MINUTES), 2);
    RecordingSourceContext ctx = new RecordingSourceContext();

    fx.source(ElfFixture.config(List.of("Login", "API"), 2, Duration.ZERO)).cycleOnce(ctx);

    assertThat(ctx.linesOf("Login")).containsExactlyElementsOf(fx.expectedLines(logins));
    assertThat(ctx.linesOf("API")).containsExactlyElementsOf(fx.expectedLines(api));
    ElfCheckpoint login = ElfCheckpoint.parse(ctx.deliverAll().get(ElfCursors.key("Login")));
    assertThat(login.watermark()).isEqualTo(logins[logins.length - 1].createdDate());
  }

  @Test
  void aTypeThatStopsInOneRoundIsHandedNoLaterRoundsFilesThatCycle() throws Exception {
    LogFileSpec[] logins = logins(ElfListing.PAGES_PER_ROUND + 3, 300, 1); // a round ends inside
    LogFileSpec api = file("API", now.minus(20, ChronoUnit.MINUTES), 2);
    fx.sf.inject(Fault.serverError(Fault.Route.LOGFILE)); // Login's first file, once
    EventLogFileSource source =
        fx.source(ElfFixture.config(List.of("Login", "API"), 1, Duration.ZERO));
    RecordingSourceContext ctx = new RecordingSourceContext();

    source.cycleOnce(ctx);
    List<String> afterFirst = ctx.linesOf("Login");
    source.cycleOnce(ctx);

    assertThat(afterFirst).isEmpty();
    assertThat(ctx.linesOf("API")).containsExactlyElementsOf(fx.expectedLines(api));
    assertThat(ctx.linesOf("Login")).containsExactlyElementsOf(fx.expectedLines(logins));
  }

  @Test
  void withTheWildcardOnlyTheFirstCycleDiscoversAndTheListingFindsTypesThatAppearLater()
      throws Exception {
    fx.file("Login", 50, 1);
    EventLogFileSource source = fx.source(ElfFixture.config(List.of("*")));
    RecordingSourceContext ctx = new RecordingSourceContext();
    source.cycleOnce(ctx);
    LogFileSpec api = fx.file("API", 20, 3); // the org's first API file, after discovery

    source.cycleOnce(ctx);

    assertThat(fx.sf.queries()).hasSize(3).first().asString().contains("GROUP BY EventType");
    assertThat(listings().get(1)).contains("EventType NOT IN ('Login')");
    assertThat(ctx.linesOf("API")).containsExactlyElementsOf(fx.expectedLines(api));
  }

  @Test
  void aTypeFirstListedWithAStoredCursorBeforeTheListingsReachIsReadFromTheNextCycle()
      throws Exception {
    fx.file("Login", 50, 1);
    EventLogFileSource source = fx.source(ElfFixture.config(List.of("*")));
    RecordingSourceContext ctx = new RecordingSourceContext();
    ctx.committed(ElfCursors.key("API"), cursorAt(now.minus(3, ChronoUnit.DAYS)));
    source.cycleOnce(ctx); // discovers Login only
    LogFileSpec old = file("API", now.minus(60, ChronoUnit.HOURS), 2); // behind the 2-day lookback
    LogFileSpec recent = fx.file("API", 20, 3);

    boolean secondComplete = source.cycleOnce(ctx);
    List<LogEntry> afterSecond = ctx.rowsOf("API");
    source.cycleOnce(ctx);

    assertThat(secondComplete).isFalse();
    assertThat(afterSecond).isEmpty();
    assertThat(ctx.linesOf("API")).containsExactlyElementsOf(fx.expectedLines(old, recent));
  }
}
