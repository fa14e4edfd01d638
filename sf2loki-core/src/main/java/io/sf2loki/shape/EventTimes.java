package io.sf2loki.shape;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Parses the timestamp forms found in Salesforce payloads: ISO-8601 with {@code Z}, {@code +hh:mm}
 * or {@code +hhmm} ({@code 2026-06-30T01:00:00.000+0000}), the compact EventLogFile form {@code
 * 20260630005959.123}, and epoch milliseconds (as a number or a string of digits). A value without
 * an offset is UTC.
 */
public final class EventTimes {

  private static final Pattern EPOCH_MILLIS = Pattern.compile("-?\\d{10,16}");
  private static final Pattern COMPACT = Pattern.compile("\\d{14}(\\.\\d{1,9})?");
  private static final DateTimeFormatter COMPACT_FORMAT =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyyMMddHHmmss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .toFormatter();
  private static final DateTimeFormatter ISO =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
          .optionalStart()
          .appendOffset("+HH:MM", "Z")
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HHMM", "Z")
          .optionalEnd()
          .toFormatter();

  private EventTimes() {}

  /** The instant {@code value} denotes, or empty when it is none of the accepted forms. */
  public static Optional<Instant> parse(Object value) {
    if (value instanceof Number n) {
      if (n instanceof Double || n instanceof Float || n instanceof BigDecimal) {
        double d = n.doubleValue();
        return Double.isFinite(d) ? Optional.of(Instant.ofEpochMilli((long) d)) : Optional.empty();
      }
      return Optional.of(Instant.ofEpochMilli(n.longValue()));
    }
    return value instanceof CharSequence s ? parseText(s.toString()) : Optional.empty();
  }

  private static Optional<Instant> parseText(String text) {
    String s = text.strip();
    if (s.isEmpty()) {
      return Optional.empty();
    }
    try {
      if (COMPACT.matcher(s).matches()) {
        return Optional.of(LocalDateTime.parse(s, COMPACT_FORMAT).toInstant(ZoneOffset.UTC));
      }
      if (EPOCH_MILLIS.matcher(s).matches()) {
        return Optional.of(Instant.ofEpochMilli(Long.parseLong(s)));
      }
      var parsed = ISO.parseBest(s, OffsetDateTime::from, LocalDateTime::from);
      if (parsed instanceof OffsetDateTime odt) {
        return Optional.of(odt.toInstant());
      }
      return Optional.of(((LocalDateTime) parsed).toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /** Nanoseconds since the epoch, for Loki entries; instants before 1970 map to 0. */
  public static long epochNanos(Instant t) {
    if (t.isBefore(Instant.EPOCH)) {
      return 0;
    }
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
  }
}
