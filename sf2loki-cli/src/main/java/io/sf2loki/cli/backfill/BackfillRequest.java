package io.sf2loki.cli.backfill;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated {@code backfill} command line.
 *
 * @param source the source type to re-ingest ({@link #SUPPORTED})
 * @param since inclusive lower CreatedDate bound
 * @param until exclusive upper bound (the run start when {@code --until} was omitted or ahead)
 * @param untilGiven {@code --until} as given, before the cap to now; empty when omitted (an
 *     open-ended window, which each run reads up to its start)
 * @param eventTypes the {@code --event-types} given (event types, or objects for {@code
 *     eventlog_objects}); empty: the configured ones
 * @param dryRun list and estimate only
 */
public record BackfillRequest(
    String source,
    Instant since,
    Instant until,
    Optional<Instant> untilGiven,
    List<String> eventTypes,
    boolean dryRun) {

  /** The EventLogFile source. */
  public static final String EVENTLOGFILE = "eventlogfile";

  /** The event-object source. */
  public static final String EVENTLOG_OBJECTS = "eventlog_objects";

  /** The sources backfill can bound; each reads {@code start}/{@code until} from its section. */
  public static final List<String> SUPPORTED = List.of(EVENTLOGFILE, EVENTLOG_OBJECTS);

  public BackfillRequest {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(until, "until");
    Objects.requireNonNull(untilGiven, "untilGiven");
    eventTypes = List.copyOf(eventTypes);
    if (!since.isBefore(until)) {
      throw new IllegalArgumentException("since must be before until");
    }
  }

  /**
   * The window as it names the backfill's progress document: {@code <since>-<until>} in the basic
   * ISO form ({@code 20260701T000000Z-20260703T000000Z}), {@code <since>-open} without {@code
   * --until}. The {@code --until} as given, not as capped, so that re-running the same command
   * resumes the same document.
   */
  public String windowName() {
    return compact(since) + "-" + untilGiven.map(BackfillRequest::compact).orElse("open");
  }

  /** {@code <since>..<until>}, for messages. */
  public String describeWindow() {
    return since + ".." + until;
  }

  private static String compact(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t).replace("-", "").replace(":", "");
  }
}
