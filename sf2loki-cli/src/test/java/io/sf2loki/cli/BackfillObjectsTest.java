package io.sf2loki.cli;

import static io.sf2loki.cli.BackfillFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.salesforce.EventObjects;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code backfill --source eventlog_objects} end to end against the fake org and Loki. */
class BackfillObjectsTest {

  private static final String OBJECTS =
      "sources.eventlog_objects { enabled = true, poll_interval = 1s,"
          + " objects = [{name = SetupAuditTrail}, {name = LoginHistory}, {name = LoginEvent}] }";
  private static final Pattern ID = Pattern.compile("\"Id\": ?\"([A-Za-z0-9]+)\"");

  @TempDir Path dir;
  private BackfillFixture fx;
  private EventObjects objects;
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  @BeforeEach
  void start() throws Exception {
    fx = new BackfillFixture(dir, OBJECTS);
    objects = fx.salesforce.eventObjects();
    objects.define("SetupAuditTrail", "CreatedDate", false);
    objects.define("LoginHistory", "LoginTime", false);
    objects.define("LoginEvent", "EventDate", true);
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  private Instant hoursAgo(long hours) {
    return now.minus(hours, ChronoUnit.HOURS);
  }

  private CliRun backfill(String... more) {
    List<String> args = new ArrayList<>(List.of("--source", "eventlog_objects"));
    args.addAll(List.of("--since", hoursAgo(10).toString(), "--until", hoursAgo(4).toString()));
    args.addAll(List.of(more));
    return fx.backfill(args.toArray(String[]::new));
  }

  private List<String> idsInLoki(String object) {
    return fx.loki.entries().stream()
        .filter(e -> object.equals(e.labels().get("event_type")))
        .map(AcceptedEntry::line)
        .map(
            l -> {
              Matcher m = ID.matcher(l);
              return m.find() ? m.group(1) : "?";
            })
        .toList();
  }

  private List<String> addEach(String object, long... hours) {
    List<String> ids = new ArrayList<>();
    for (long h : hours) {
      ids.add(objects.add(object, hoursAgo(h)));
    }
    return ids;
  }

  @Test
  void reingestsEachObjectsWindowLabelledBackfillBesideALiveDaemonWhoseStateStaysUntouched()
      throws Exception {
    addEach("SetupAuditTrail", 11);
    List<String> audit = addEach("SetupAuditTrail", 9, 8);
    addEach("SetupAuditTrail", 4, 3);
    List<String> logins = addEach("LoginHistory", 7, 5);
    addEach("LoginHistory", 1);
    Files.writeString(
        fx.daemonState,
        "{\"eventlog_objects:SetupAuditTrail\": \"2026-01-01T00:00:00.000+0000\"}",
        StandardCharsets.UTF_8);
    byte[] daemonBefore = Files.readAllBytes(fx.daemonState);

    CheckpointStore daemon = fx.holdLock(fx.daemonState);
    CliRun run;
    try {
      run = backfill("--objects", "SetupAuditTrail,LoginHistory");
    } finally {
      daemon.close();
    }

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(idsInLoki("SetupAuditTrail")).containsExactlyElementsOf(audit);
    assertThat(idsInLoki("LoginHistory")).containsExactlyElementsOf(logins);
    assertThat(fx.loki.entries())
        .allSatisfy(e -> assertThat(e.labels()).containsEntry("backfill", "true"));
    assertThat(Files.readAllBytes(fx.daemonState)).isEqualTo(daemonBefore);
    assertThat(Files.readString(fx.backfillState("eventlog_objects", hoursAgo(10), hoursAgo(4))))
        .contains("eventlog_objects:SetupAuditTrail", "eventlog_objects:LoginHistory");
    assertThat(run.out()).contains("backfill done: rows_pushed=4 rows_dropped=0");
  }

  @Test
  void theObjectsOptionSelectsWhichObjectsAreReingested() throws Exception {
    addEach("SetupAuditTrail", 9);
    List<String> logins = addEach("LoginHistory", 7);

    CliRun run = backfill("--objects", "LoginHistory");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(idsInLoki("LoginHistory")).containsExactlyElementsOf(logins);
    assertThat(idsInLoki("SetupAuditTrail")).isEmpty();
    assertThat(Files.readString(fx.backfillState("eventlog_objects", hoursAgo(10), hoursAgo(4))))
        .doesNotContain("SetupAuditTrail");
  }

  @Test
  void aRerunAfterAnAbortResumesRepeatingAtMostOnePage() throws Exception {
    List<String> audit = new ArrayList<>();
    Instant from = hoursAgo(9);
    for (int i = 0; i < 1_800; i++) {
      audit.add(objects.add("SetupAuditTrail", from.plusSeconds(i)));
    }
    CliRun aborted = fx.abortMidRun(700, () -> backfill("--objects", "SetupAuditTrail"));
    int landedBefore = fx.loki.lines().size();
    CliRun resumed = backfill("--objects", "SetupAuditTrail");

    assertThat(aborted.exitCode()).isEqualTo(1);
    assertThat(aborted.err()).contains("backfill aborted", "run the same command again");
    assertThat(landedBefore).isLessThan(1_800);
    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    Map<String, Integer> seen = new HashMap<>();
    idsInLoki("SetupAuditTrail").forEach(id -> seen.merge(id, 1, Integer::sum));
    assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(audit);
    assertThat(seen.values().stream().filter(n -> n > 1).count())
        .as("rows sent twice: at most the page whose last row was not acknowledged")
        .isLessThanOrEqualTo(200);
  }

  @Test
  void aDryRunSendsNothingAndItsRowsAndApiCallsAreWhatTheRealRunThenSpends() throws Exception {
    for (int i = 0; i < 450; i++) {
      objects.add("SetupAuditTrail", hoursAgo(9).plusSeconds(i));
    }
    addEach("SetupAuditTrail", 3);
    addEach("LoginHistory", 8, 7, 6);

    CliRun dry = backfill("--objects", "SetupAuditTrail,LoginHistory", "--dry-run");
    int pushesAfterDryRun = fx.loki.pushes().size();
    CliRun real = backfill("--objects", "SetupAuditTrail,LoginHistory");

    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(pushesAfterDryRun).isZero();
    assertThat(real.exitCode()).as(real.err()).isZero();
    assertThat(dry.out()).contains("  SetupAuditTrail: rows=450 query_calls=3");
    assertThat(field(dry.out(), "estimate:", "rows"))
        .isEqualTo(453)
        .isEqualTo(field(real.out(), "backfill done:", "rows_pushed"));
    assertThat(field(dry.out(), "estimate:", "api_calls"))
        .isEqualTo(field(real.out(), "backfill done:", "api_calls"));
    assertThat(dry.out()).contains("bytes=unknown", "bytes: unknown until fetched");
  }

  @Test
  void aBackfillOfAnEarlierWindowAfterALaterOneShipsTheEarlierWindowsRows() {
    List<String> earlier = addEach("LoginHistory", 9, 8);
    List<String> later = addEach("LoginHistory", 5, 4);

    CliRun b = window(hoursAgo(6), hoursAgo(3));
    CliRun a = window(hoursAgo(10), hoursAgo(7));

    assertThat(b.exitCode()).as(b.err()).isZero();
    assertThat(a.exitCode()).as(a.err()).isZero();
    List<String> both = new ArrayList<>(later);
    both.addAll(earlier);
    assertThat(idsInLoki("LoginHistory")).containsExactlyElementsOf(both);
    assertThat(a.out()).contains("complete, read from its start by this run: 2 rows pushed");
  }

  private CliRun window(Instant since, Instant until) {
    return fx.backfill(
        "--source",
        "eventlog_objects",
        "--since",
        since.toString(),
        "--until",
        until.toString(),
        "--objects",
        "LoginHistory");
  }

  @Test
  void aDryRunResumesFromTheBackfillsOwnProgress() throws Exception {
    addEach("LoginHistory", 8, 7);
    backfill("--objects", "LoginHistory");
    addEach("LoginHistory", 6);

    CliRun dry = backfill("--objects", "LoginHistory", "--dry-run");

    assertThat(dry.out())
        .contains(
            "resuming where an earlier run of this window stopped (LoginHistory; progress in "
                + fx.backfillState("eventlog_objects", hoursAgo(10), hoursAgo(4)),
            "LoginHistory: rows=1 ");
  }

  @Test
  void aBigObjectThatSalesforceWillNotCountIsReportedUnknown() throws Exception {
    addEach("LoginEvent", 8);

    CliRun dry = backfill("--objects", "LoginEvent", "--dry-run");

    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(dry.out())
        .contains("LoginEvent: rows=unknown query_calls=unknown")
        .contains("BIG_OBJECT_UNSUPPORTED_OPERATION", "big objects allow no COUNT()")
        .contains("estimate: rows=0+unknown");
  }

  @Test
  void anUntilInsideTheSettleWindowIsWarnedAboutBecauseTheRunWaitsForIt() {
    CliRun dry =
        fx.backfill(
            "--source", "eventlog_objects", "--since", hoursAgo(10).toString(), "--dry-run");

    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(dry.err())
        .contains("backfill WARN: --until", "inside the objects' settle_window (5m)");
    assertThat(dry.out()).contains("--until is inside its settle_window");
  }

  @Test
  void aWindowOlderThanTheObjectsRetentionAndLokisMaxAgeIsWarnedAboutAndCounted() {
    objects.add("SetupAuditTrail", now.minus(8, ChronoUnit.DAYS));
    objects.add("SetupAuditTrail", hoursAgo(5));

    CliRun dry =
        fx.backfill(
            "--source",
            "eventlog_objects",
            "--since",
            now.minus(200, ChronoUnit.DAYS).toString(),
            "--until",
            hoursAgo(4).toString(),
            "--objects",
            "SetupAuditTrail,Order_Event__c",
            "--dry-run");

    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(dry.err())
        .contains("backfill WARN: --since", "more than 180 days ago")
        .contains("Salesforce keeps SetupAuditTrail for about six months")
        .doesNotContain("Order_Event__c")
        .contains("older than Loki accepts");
    assertThat(dry.out()).contains("SetupAuditTrail: rows=2 query_calls=1 too_old_rows=1");
  }
}
