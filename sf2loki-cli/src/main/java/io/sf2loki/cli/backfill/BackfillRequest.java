package io.sf2loki.cli.backfill;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A validated {@code backfill} command line.
 *
 * @param source the source type to re-ingest ({@link #SUPPORTED})
 * @param since inclusive lower CreatedDate bound
 * @param until exclusive upper bound (the run start when {@code --until} was omitted or ahead)
 * @param eventTypes the {@code --event-types} given (event types, or objects for {@code
 *     eventlog_objects}); empty: the configured ones
 * @param dryRun list and estimate only
 */
public record BackfillRequest(
    String source, Instant since, Instant until, List<String> eventTypes, boolean dryRun) {

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
    eventTypes = List.copyOf(eventTypes);
    if (!since.isBefore(until)) {
      throw new IllegalArgumentException("since must be before until");
    }
  }
}
