package io.sf2loki.cli;

import static io.sf2loki.cli.BackfillFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.salesforce.EventLogObjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code backfill --source eventlog_objects} of an Event Log Object: counted and read within its
 * query rules (at most two Timestamp filters, windows of at most 15 days), from its own checkpoint
 * token, against the fake org that refuses anything else.
 */
class BackfillEventLogObjectsTest {

  private static final String OBJECTS =
      "sources.eventlog_objects { enabled = true, poll_interval = 1s,"
          + " objects = [{name = LoginEventLog}] }";

  @TempDir Path dir;
  private BackfillFixture fx;
  private EventLogObjects elo;
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  @BeforeEach
  void start() throws Exception {
    fx = new BackfillFixture(dir, OBJECTS);
    elo = fx.salesforce.eventLogObjects();
    elo.define("LoginEventLog");
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  private void add(Instant at, int rows) {
    for (int i = 0; i < rows; i++) {
      elo.add("LoginEventLog", at.plusSeconds(i), at.plusSeconds(i), Map.of());
    }
  }

  private CliRun backfill(Instant since, String... more) {
    String[] args = {
      "--source",
      "eventlog_objects",
      "--since",
      since.toString(),
      "--until",
      now.minus(4, ChronoUnit.HOURS).toString()
    };
    String[] all =
        java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.Arrays.stream(more))
            .toArray(String[]::new);
    return fx.backfill(all);
  }

  @Test
  void aWindowOfTwentyDaysIsCountedInFifteenDayWindowsAndTheRunShipsWhatTheDryRunCounted() {
    add(now.minus(18, ChronoUnit.DAYS), 3);
    add(now.minus(6, ChronoUnit.HOURS), 300);
    add(now.minus(2, ChronoUnit.HOURS), 5); // after --until

    CliRun dry = backfill(now.minus(20, ChronoUnit.DAYS), "--dry-run");
    int pushesAfterDryRun = fx.loki.pushes().size();
    CliRun real = backfill(now.minus(20, ChronoUnit.DAYS));

    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(pushesAfterDryRun).isZero();
    assertThat(real.exitCode()).as(real.err()).isZero();
    // two 15-day windows: a short page each, plus the describe
    assertThat(dry.out()).contains("  LoginEventLog: rows=303 query_calls=3 ");
    assertThat(field(dry.out(), "estimate:", "rows"))
        .isEqualTo(303)
        .isEqualTo(field(real.out(), "backfill done:", "rows_pushed"));
    assertThat(field(dry.out(), "estimate:", "api_calls"))
        .isEqualTo(field(real.out(), "backfill done:", "api_calls"));
    assertThat(elo.refusals()).as("%s", elo.refusedQueries()).isZero();
  }

  @Test
  void aDryRunResumesFromTheEventLogObjectsOwnTokenWithoutCallingItCorrupt() throws Exception {
    Instant since = now.minus(10, ChronoUnit.HOURS);
    add(now.minus(8, ChronoUnit.HOURS), 4);
    add(now.minus(6, ChronoUnit.HOURS), 2);
    Path progress = fx.backfillState("eventlog_objects", since, now.minus(4, ChronoUnit.HOURS));
    Files.writeString(
        progress,
        "{\"eventlog_objects:LoginEventLog\": \"{\\\"from\\\": \\\""
            + now.minus(7, ChronoUnit.HOURS)
            + "\\\", \\\"v\\\": 1}\"}");

    CliRun dry = backfill(since, "--dry-run");

    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(dry.out()).contains("  LoginEventLog: rows=2 ");
    assertThat(dry.err()).doesNotContain("corrupt");
  }

  @Test
  void aSinceBeyondTheThirtyDaysEventLogObjectsAreKeptIsWarnedAbout() {
    CliRun dry = backfill(now.minus(40, ChronoUnit.DAYS), "--dry-run");

    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(dry.err())
        .contains("backfill WARN: --since", "Salesforce keeps LoginEventLog for 30 days");
    assertThat(elo.refusals()).as("%s", elo.refusedQueries()).isZero();
  }
}
