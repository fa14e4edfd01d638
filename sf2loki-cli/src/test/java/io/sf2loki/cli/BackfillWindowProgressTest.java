package io.sf2loki.cli;

import static io.sf2loki.cli.BackfillFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

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

/**
 * Backfill progress belongs to its source and window: one document each, so a window never takes
 * another's progress for its own, and the summary tells a window read now from one read earlier.
 */
class BackfillWindowProgressTest {

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

  /** A backfill of Login files created from {@code since} until {@code until}. */
  private CliRun backfill(Instant since, Instant until, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--source",
                "eventlogfile",
                "--since",
                since.toString(),
                "--until",
                until.toString(),
                "--event-types",
                "Login"));
    args.addAll(List.of(more));
    return fx.backfill(args.toArray(String[]::new));
  }

  @Test
  void aBackfillOfAnEarlierWindowAfterALaterOneShipsTheEarlierWindowsFiles() throws Exception {
    List<LogFileSpec> earlier =
        List.of(fx.file("Login", hoursAgo(9), 12), fx.file("Login", hoursAgo(8), 7));
    List<LogFileSpec> later =
        List.of(fx.file("Login", hoursAgo(5), 4), fx.file("Login", hoursAgo(4), 3));

    CliRun b = backfill(hoursAgo(6), hoursAgo(3));
    CliRun dry = backfill(hoursAgo(10), hoursAgo(7), "--dry-run");
    CliRun a = backfill(hoursAgo(10), hoursAgo(7));

    assertThat(b.exitCode()).as(b.err()).isZero();
    assertThat(a.exitCode()).as(a.err()).isZero();
    List<LogFileSpec> both = new ArrayList<>(later);
    both.addAll(earlier);
    assertThat(fx.linesInLoki("Login")).containsExactlyElementsOf(fx.lines(both));
    assertThat(field(dry.out(), "estimate:", "files")).isEqualTo(2);
    assertThat(field(a.out(), "backfill done:", "files")).isEqualTo(2);
    assertThat(a.out())
        .contains(
            "backfill eventlogfile "
                + hoursAgo(10)
                + ".."
                + hoursAgo(7)
                + ": complete, read from its start by this run: 2 files, 19 rows pushed");
    assertThat(fx.backfillState("eventlogfile", hoursAgo(10), hoursAgo(7))).exists();
    assertThat(fx.backfillState("eventlogfile", hoursAgo(6), hoursAgo(3))).exists();
  }

  @Test
  void anInterruptedWindowResumesWithoutResendingAfterAnotherWindowRanMeanwhile() throws Exception {
    List<LogFileSpec> logins = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      logins.add(fx.file("Login", hoursAgo(15 - i), 300));
    }
    LogFileSpec later = fx.file("Login", hoursAgo(4), 5);
    CliRun aborted = fx.abortMidRun(700, () -> backfill(hoursAgo(16), hoursAgo(9)));
    CliRun other = backfill(hoursAgo(6), hoursAgo(3));
    CliRun resumed = backfill(hoursAgo(16), hoursAgo(9));

    assertThat(aborted.exitCode()).isEqualTo(1);
    assertThat(other.exitCode()).as(other.err()).isZero();
    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    Map<String, Integer> seen = new HashMap<>();
    fx.linesInLoki("Login").forEach(l -> seen.merge(l, 1, Integer::sum));
    List<LogFileSpec> all = new ArrayList<>(logins);
    all.add(later);
    assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(fx.lines(all));
    assertThat(seen.values().stream().filter(n -> n > 1).count())
        .as("rows sent twice: at most the one file whose last row was not acknowledged")
        .isLessThanOrEqualTo(300);
    assertThat(resumed.out())
        .contains("resuming where an earlier run of this window stopped (Login)")
        .contains("complete, resumed where an earlier run of this window stopped (Login)");
  }

  @Test
  void aWindowAlreadyReadToItsEndSaysSoSendsNothingAndExitsZero() throws Exception {
    fx.file("Login", hoursAgo(9), 12);
    CliRun first = backfill(hoursAgo(10), hoursAgo(7));
    int pushes = fx.loki.pushes().size();

    CliRun dry = backfill(hoursAgo(10), hoursAgo(7), "--dry-run");
    CliRun again = backfill(hoursAgo(10), hoursAgo(7));

    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(fx.loki.pushes()).hasSize(pushes);
    assertThat(again.out())
        .doesNotContain("backfill done:")
        .contains("backfill nothing to do: files=0 rows_pushed=0")
        .contains(
            ": nothing to do, earlier runs of this window had already read it to its end"
                + " (progress in "
                + fx.backfillState("eventlogfile", hoursAgo(10), hoursAgo(7)));
    assertThat(field(dry.out(), "estimate:", "files")).isZero();
    assertThat(dry.out()).contains("  nothing to do: earlier runs of this window");
  }

  @Test
  void aWindowWithNothingInItIsCompleteAndSaysItSentNothing() {
    fx.file("Login", hoursAgo(4), 3);

    CliRun run = backfill(hoursAgo(10), hoursAgo(7));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("backfill done: files=0")
        .contains("complete, nothing in the window (no file of the event types read was created");
    assertThat(fx.loki.lines()).isEmpty();
  }

  @Test
  void theSharedDocumentOfAnEarlierVersionIsNotReadAndTheWarningNamesIt() throws Exception {
    List<LogFileSpec> earlier = List.of(fx.file("Login", hoursAgo(9), 12));
    LogFileSpec later = fx.file("Login", hoursAgo(5), 4);
    String legacy =
        "{\"eventlogfile:Login\": \"{\\\"ids\\\": [[\\\""
            + later.id()
            + "\\\", \\\""
            + later.createdDate()
            + "\\\"]], \\\"last_created\\\": \\\""
            + later.createdDate()
            + "\\\"}\"}"; // what a backfill of the later window left in the shared document
    Files.writeString(fx.legacyBackfillState, legacy, StandardCharsets.UTF_8);

    CliRun a = backfill(hoursAgo(10), hoursAgo(7));

    assertThat(a.exitCode()).as(a.err()).isZero();
    assertThat(fx.linesInLoki("Login")).containsExactlyElementsOf(fx.lines(earlier));
    assertThat(a.err())
        .contains(
            "backfill WARN: "
                + fx.legacyBackfillState
                + " holds eventlogfile progress (Login) written by an earlier sf2loki version")
        .contains("it is not read");
    assertThat(Files.readString(fx.legacyBackfillState)).isEqualTo(legacy);
  }
}
