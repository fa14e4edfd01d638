package io.sf2loki.source.eventlogfile;

import io.sf2loki.source.window.TimeWindow;
import io.sf2loki.spi.ConfigSection;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The optional CreatedDate bounds of {@code sources.eventlogfile} ({@code start}, {@code until}),
 * bound as every source's {@link TimeWindow}: no file created before {@code start} is read, and
 * none created at or after {@code until}, which also makes the source finite. Unbounded on both
 * sides by default (the daemon's live run).
 *
 * @param start inclusive lower bound; also where the first run starts instead of the lookback
 * @param until exclusive upper bound; the source finishes once it has read every type up to it
 */
public record ElfWindow(Optional<Instant> start, Optional<Instant> until) {

  /** No bound: the live run. */
  public static final ElfWindow UNBOUNDED = new ElfWindow(Optional.empty(), Optional.empty());

  /** Binds {@code start} and {@code until} of {@code r}, recording malformed or crossed values. */
  static ElfWindow bind(ConfigSection r) {
    TimeWindow w = TimeWindow.bind(r);
    return new ElfWindow(w.start(), w.until());
  }

  /** The same bounds as every source's {@link TimeWindow}. */
  public TimeWindow bounds() {
    return new TimeWindow(start, until);
  }

  /**
   * An ISO-8601 instant ({@code 2026-07-01T00:00:00Z}) or a date, read as UTC midnight.
   *
   * @throws DateTimeParseException when {@code value} is neither
   */
  public static Instant parseInstant(String value) {
    return TimeWindow.parseInstant(value);
  }
}
