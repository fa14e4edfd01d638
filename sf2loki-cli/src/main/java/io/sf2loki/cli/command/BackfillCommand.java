package io.sf2loki.cli.command;

import io.sf2loki.cli.backfill.Backfill;
import io.sf2loki.cli.backfill.BackfillRequest;
import io.sf2loki.source.window.TimeWindow;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code backfill --source S --since T [--until T] [--event-types|--objects A,B] [--dry-run]}:
 * parses and checks the command line (exit 2 on a bad date, window or source), then hands over to
 * {@link Backfill}.
 */
@Command(
    name = "backfill",
    mixinStandardHelpOptions = true,
    description = {
      "Re-ingest a past window into Loki beside a running daemon: the configured source, bounded"
          + " by CreatedDate (eventlogfile) or each object's timestamp_field (eventlog_objects), through the daemon's pipeline and Loki sink, its entries labelled"
          + " backfill=\"true\", its progress in a checkpoint document of its own per source and"
          + " window (<state file stem>-backfill-<source>-<since>-<until|open><suffix>)."
          + " Running the same command again resumes.",
    })
public final class BackfillCommand implements Callable<Integer> {

  @Mixin GlobalOptions global;

  @Spec CommandSpec spec;

  @Option(
      names = "--source",
      required = true,
      paramLabel = "SOURCE",
      description = "The source to re-ingest: ${COMPLETION-CANDIDATES}.",
      completionCandidates = Supported.class)
  String source;

  @Option(
      names = "--since",
      required = true,
      paramLabel = "TIME",
      description = "Inclusive start: a date (UTC midnight) or an ISO-8601 instant.")
  String since;

  @Option(
      names = "--until",
      paramLabel = "TIME",
      description = "Exclusive end, like --since. Default (and at most): now.")
  String until;

  @Option(
      names = {"--event-types", "--objects"},
      split = ",",
      paramLabel = "NAME",
      description =
          "Only these event types (eventlogfile) or objects (eventlog_objects); default: the"
              + " configured ones.")
  List<String> eventTypes = List.of();

  @Option(
      names = "--dry-run",
      description =
          "List or count and estimate (files, bytes, rows, API calls, too-old entries); send"
              + " nothing.")
  boolean dryRun;

  private final Clock clock = Clock.systemUTC();

  @Override
  public Integer call() throws InterruptedException {
    BackfillRequest request = request(clock.instant().truncatedTo(ChronoUnit.SECONDS));
    CliEnvironment env = global.environment();
    return new Backfill(clock, env.environment(), env.out(), env.err())
        .run(global.loadConfig(), env.providers(), request);
  }

  /** The validated command line; {@code --until} defaults to, and is capped at, {@code now}. */
  BackfillRequest request(Instant now) {
    if (!BackfillRequest.SUPPORTED.contains(source)) {
      throw usage(
          "--source "
              + source
              + " is not supported by backfill (supported: "
              + String.join(", ", BackfillRequest.SUPPORTED)
              + ")");
    }
    Instant from = instant("--since", since);
    Optional<Instant> given = Optional.ofNullable(until).map(value -> instant("--until", value));
    Instant to = given.orElse(now);
    if (to.isAfter(now)) {
      global
          .environment()
          .err()
          .println("backfill: --until " + to + " is ahead; using now, " + now);
      to = now;
    }
    if (!from.isBefore(to)) {
      throw usage("--since " + from + " must be before --until " + to);
    }
    return new BackfillRequest(source, from, to, given, eventTypes, dryRun);
  }

  private Instant instant(String option, String value) {
    try {
      return TimeWindow.parseInstant(value);
    } catch (DateTimeParseException e) {
      throw usage(
          option
              + " '"
              + value
              + "' is not a date (2026-07-01, UTC midnight) or an ISO-8601 instant"
              + " (2026-07-01T06:00:00Z)");
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The supported sources, for the help text. */
  static final class Supported implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return BackfillRequest.SUPPORTED.iterator();
    }
  }
}
