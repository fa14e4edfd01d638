package io.sf2loki.source.shape;

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
 * or {@code +hhmm} (Salesforce's REST form {@code 2026-06-30T01:00:00.000+0000}), the compact ELF
 * form {@code 20260630005959.123}, and integer epoch milliseconds. A value without an offset is
 * UTC.
 */
public final class Timestamps {

  private static final Pattern EPOCH_MILLIS = Pattern.compile("-?\\d{10,16}");
  private static final Pattern COMPACT = Pattern.compile("\\d{14}(\\.\\d{1,9})?");
  private static final DateTimeFormatter COMPACT_FORMAT =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyyMMddHHmmss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .toFormatter();
  private static final DateTimeFormatter ISO_OFFSET =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
          .optionalStart()
          .appendOffset("+HH:MM", "Z")
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HHMM", "Z")
          .optionalEnd()
          .toFormatter();
  private static final DateTimeFormatter SOQL_LITERAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Timestamps() {}

  /** The instant {@code text} denotes, or empty when it is none of the accepted forms. */
  public static Optional<Instant> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
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
      var parsed = ISO_OFFSET.parseBest(s, OffsetDateTime::from, LocalDateTime::from);
      if (parsed instanceof OffsetDateTime odt) {
        return Optional.of(odt.toInstant());
      }
      return Optional.of(((LocalDateTime) parsed).toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /** The UTC SOQL datetime literal form, always with milliseconds: {@code ...T01:00:00.000Z}. */
  public static String soqlLiteral(Instant t) {
    return SOQL_LITERAL.format(t);
  }

  /** Nanoseconds since the epoch, for Loki entries. */
  public static long epochNanos(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
  }
}
