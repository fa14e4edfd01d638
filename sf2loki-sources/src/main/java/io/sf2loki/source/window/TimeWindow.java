package io.sf2loki.source.window;

import io.sf2loki.spi.ConfigSection;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The optional bounds of a source section's {@code start} and {@code until} keys: nothing older
 * than {@code start} is read, nothing at or after {@code until}, which also makes the source
 * finite. Each source says which timestamp the bounds apply to (EventLogFile: {@code CreatedDate};
 * event objects: each object's {@code timestamp_field}). Unbounded on both sides by default.
 *
 * @param start inclusive lower bound; also where the first run starts instead of the lookback
 * @param until exclusive upper bound; the source finishes once it has read everything below it
 */
public record TimeWindow(Optional<Instant> start, Optional<Instant> until) {

  /** No bound: the live run. */
  public static final TimeWindow UNBOUNDED = new TimeWindow(Optional.empty(), Optional.empty());

  /** Binds {@code start} and {@code until} of {@code r}, recording malformed or crossed values. */
  public static TimeWindow bind(ConfigSection r) {
    Optional<Instant> start = instant(r, "start");
    Optional<Instant> until = instant(r, "until");
    if (start.isPresent() && until.isPresent() && !start.get().isBefore(until.get())) {
      r.problem(
          "until",
          r.path("until")
              + " ("
              + until.get()
              + ") must be after "
              + r.path("start")
              + " ("
              + start.get()
              + ")");
    }
    return new TimeWindow(start, until);
  }

  /** Where a stored cursor's watermark lies relative to a window: {@link #place}. */
  public enum Place {
    /** Behind {@code start}: progress from before the window; a run moves it up to start. */
    BEFORE_START,
    /** Inside the window: where a run of the window resumes. */
    INSIDE,
    /**
     * At or after {@code until}: not this window's progress, since reading the window never records
     * a position at or after until (another window's backfill, a live run from before until was
     * set, or a {@code state set} left it); a run reads the window from its start.
     */
    AT_OR_AFTER_UNTIL
  }

  /**
   * Where a stored cursor at {@code watermark} lies: a source resumes only from one {@link
   * Place#INSIDE} the window, so progress made in another window is never taken for this one's.
   */
  public Place place(Instant watermark) {
    if (start.isPresent() && watermark.isBefore(start.get())) {
      return Place.BEFORE_START;
    }
    return untilReachedBy(watermark) ? Place.AT_OR_AFTER_UNTIL : Place.INSIDE;
  }

  /** True when {@code until} is set and not after {@code t}: nothing below it is newer than t. */
  public boolean untilReachedBy(Instant t) {
    return until.map(u -> !u.isAfter(t)).orElse(false);
  }

  /**
   * An ISO-8601 instant ({@code 2026-07-01T00:00:00Z}) or a date, read as UTC midnight.
   *
   * @throws DateTimeParseException when {@code value} is neither
   */
  public static Instant parseInstant(String value) {
    String v = value.strip();
    if (v.matches("\\d{4}-\\d{2}-\\d{2}")) {
      return LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
    return OffsetDateTime.parse(v).toInstant();
  }

  private static Optional<Instant> instant(ConfigSection r, String key) {
    Optional<String> raw = r.optionalString(key);
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(parseInstant(raw.get()));
    } catch (DateTimeParseException e) {
      r.problem(
          key,
          r.path(key)
              + " ('"
              + raw.get()
              + "') must be an ISO-8601 instant such as 2026-07-01T00:00:00Z or a date such as"
              + " 2026-07-01 (UTC midnight)");
      return Optional.empty();
    }
  }
}
