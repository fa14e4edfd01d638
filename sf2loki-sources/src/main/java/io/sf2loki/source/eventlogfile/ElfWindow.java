package io.sf2loki.source.eventlogfile;

import io.sf2loki.spi.ConfigSection;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The optional CreatedDate bounds of {@code sources.eventlogfile} ({@code start}, {@code until}):
 * no file created before {@code start} is read, and none created at or after {@code until}, which
 * also makes the source finite. Unbounded on both sides by default (the daemon's live run).
 *
 * @param start inclusive lower bound; also where the first run starts instead of the lookback
 * @param until exclusive upper bound; the source finishes once it has read every type up to it
 */
public record ElfWindow(Optional<Instant> start, Optional<Instant> until) {

  /** No bound: the live run. */
  public static final ElfWindow UNBOUNDED = new ElfWindow(Optional.empty(), Optional.empty());

  /** Binds {@code start} and {@code until} of {@code r}, recording malformed or crossed values. */
  static ElfWindow bind(ConfigSection r) {
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
    return new ElfWindow(start, until);
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
    return java.time.OffsetDateTime.parse(v).toInstant();
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
