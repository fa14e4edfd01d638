package io.sf2loki.cli;

import static io.sf2loki.cli.BackfillFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code backfill} end to end: the real CLI, engine and sink against the fake org and Loki. */
class BackfillCommandTest {

  private static final String DAEMON_STATE =
      "{\"eventlogfile:Login\": \"2026-01-01T00:00:00.000+0000\"}";

  @TempDir Path dir;
  private BackfillFixture fx;
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  @BeforeEach
  void start() throws Exception {
    fx = new BackfillFixture(dir);
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  private Instant hoursAgo(long hours) {
    return now.minus(hours, ChronoUnit.HOURS);
  }

  @Test
  void reingestsTheWindowLabelledBackfillBesideALiveDaemonWhoseStateStaysUntouched()
      throws Exception {
    List<LogFileSpec> logins =
        List.of(fx.file("Login", hoursAgo(8), 30), fx.file("Login", hoursAgo(6), 20));
    List<LogFileSpec> api = List.of(fx.file("API", hoursAgo(7), 25));
    Files.writeString(fx.daemonState, DAEMON_STATE, StandardCharsets.UTF_8);
    byte[] daemonBefore = Files.readAllBytes(fx.daemonState);

    CheckpointStore daemon = fx.holdLock(fx.daemonState);
    CliRun run;
    try {
      run = fx.backfill("--source", "eventlogfile", "--since", hoursAgo(10).toString());
    } finally {
      daemon.close();
    }

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(fx.linesInLoki("Login")).containsExactlyElementsOf(fx.lines(logins));
    assertThat(fx.linesInLoki("API")).containsExactlyElementsOf(fx.lines(api));
    assertThat(fx.loki.entries())
        .allSatisfy(e -> assertThat(e.labels()).containsEntry("backfill", "true"));
    assertThat(Files.readAllBytes(fx.daemonState)).isEqualTo(daemonBefore);
    assertThat(Files.readString(fx.backfillState("eventlogfile", hoursAgo(10), null)))
        .contains("eventlogfile:Login", "eventlogfile:API");
    assertThat(run.out()).contains("backfill done: files=3 rows_pushed=75 rows_dropped=0");
  }

  @Test
  void filesCreatedBeforeSinceOrAtAndAfterUntilAreNotReingested() throws Exception {
    fx.file("Login", hoursAgo(11), 5);
    LogFileSpec inside = fx.file("Login", hoursAgo(9), 7);
    LogFileSpec atUntil = fx.file("Login", hoursAgo(4), 9);
    fx.file("Login", hoursAgo(2), 11);

    CliRun run =
        fx.backfill(
            "--source",
            "eventlogfile",
            "--since",
            hoursAgo(10).toString(),
            "--until",
            atUntil.createdDate().toString(),
            "--event-types",
            "Login");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(fx.linesInLoki("Login")).containsExactlyElementsOf(fx.lines(List.of(inside)));
  }

  @Test
  void aRerunAfterAnAbortResumesRepeatingAtMostTheFileThatWasNotFullyAcknowledged()
      throws Exception {
    List<LogFileSpec> logins = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      logins.add(fx.file("Login", hoursAgo(9 - i), 300));
    }
    // slow pushes keep the run mid-window until Loki starts failing
    CliRun aborted =
        fx.abortMidRun(
            700,
            () ->
                fx.backfill(
                    "--source", "eventlogfile",
                    "--since", hoursAgo(10).toString(),
                    "--event-types", "Login"));
    int landedBefore = fx.loki.lines().size();
    CliRun resumed =
        fx.backfill(
            "--source", "eventlogfile",
            "--since", hoursAgo(10).toString(),
            "--event-types", "Login");

    assertThat(aborted.exitCode()).isEqualTo(1);
    assertThat(aborted.err())
        .contains("backfill aborted: Loki pushes have failed", "run the same command again");
    assertThat(landedBefore).isLessThan(1_800);
    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    Map<String, Integer> seen = new HashMap<>();
    fx.linesInLoki("Login").forEach(l -> seen.merge(l, 1, Integer::sum));
    assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(fx.lines(logins));
    assertThat(seen.values().stream().filter(n -> n > 1).count())
        .as("rows sent twice: at most the one file whose last row was not acknowledged")
        .isLessThanOrEqualTo(300);
  }

  @Test
  void aDryRunSendsNothingAndItsFilesAndBytesAreWhatTheRealRunThenReads() throws Exception {
    fx.file("Login", hoursAgo(8), 40);
    fx.file("Login", hoursAgo(6), 0);
    fx.file("API", hoursAgo(7), 25);
    fx.file("API", hoursAgo(5), 35);

    CliRun dry =
        fx.backfill("--source", "eventlogfile", "--since", hoursAgo(10).toString(), "--dry-run");
    int pushesAfterDryRun = fx.loki.pushes().size();
    CliRun real = fx.backfill("--source", "eventlogfile", "--since", hoursAgo(10).toString());

    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(pushesAfterDryRun).isZero();
    assertThat(real.exitCode()).as(real.err()).isZero();
    assertThat(field(dry.out(), "estimate:", "files"))
        .isEqualTo(4)
        .isEqualTo(field(real.out(), "backfill done:", "files"));
    assertThat(field(dry.out(), "estimate:", "bytes"))
        .isEqualTo(field(real.out(), "backfill done:", "bytes"));
    assertThat((double) field(dry.out(), "estimate:", "rows"))
        .isCloseTo(100, org.assertj.core.data.Percentage.withPercentage(10));
    assertThat(field(dry.out(), "estimate:", "api_calls"))
        .isEqualTo(field(real.out(), "backfill done:", "api_calls"));
    assertThat(dry.out()).contains("too_old_files=0", "rows~: estimated from bytes");
  }

  @Test
  void aSecondBackfillOfTheSameDocumentIsRefusedByTheStoresLock() throws Exception {
    fx.file("Login", hoursAgo(8), 10);

    CheckpointStore running = fx.holdLock(fx.backfillState("eventlogfile", hoursAgo(10), null));
    CliRun second;
    try {
      second = fx.backfill("--source", "eventlogfile", "--since", hoursAgo(10).toString());
    } finally {
      running.close();
    }

    assertThat(second.exitCode()).isEqualTo(1);
    assertThat(second.err()).contains("backfill failed", "lock", "run the same command again");
    assertThat(fx.loki.lines()).isEmpty();
  }

  @Test
  void aWindowOlderThanEventLogFileRetentionAndLokisMaxAgeIsWarnedAbout() {
    CliRun dry =
        fx.backfill(
            "--source",
            "eventlogfile",
            "--since",
            now.minus(40, ChronoUnit.DAYS).toString(),
            "--dry-run");

    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(dry.err())
        .contains("backfill WARN: --since", "more than 30 days ago", "older than Loki accepts")
        .contains("re-timestamped inside Loki's window");
  }

  @Test
  void aMalformedDateIsAUsageError() {
    CliRun run = fx.backfill("--source", "eventlogfile", "--since", "yesterday");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--since 'yesterday' is not a date");
  }

  @Test
  void aWindowThatEndsBeforeItStartsIsAUsageError() {
    CliRun run =
        fx.backfill("--source", "eventlogfile", "--since", "2026-07-02", "--until", "2026-07-01");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("must be before --until");
  }

  @Test
  void anUnsupportedSourceIsAUsageErrorNamingTheSupportedOnes() {
    CliRun run = fx.backfill("--source", "pubsub", "--since", "2026-07-01");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("not supported by backfill (supported: eventlogfile, eventlog_objects)");
  }

  @Test
  void anInvalidEventTypeIsAConfigurationError() {
    CliRun run =
        fx.backfill(
            "--source", "eventlogfile", "--since", hoursAgo(10).toString(), "--event-types", "a-b");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("event_types entry 'a-b'");
  }
}
