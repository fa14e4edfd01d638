package io.sf2loki.source.eventlogobjects;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/**
 * The few SOQL text rules this source needs (validation of names and ids, datetime literals). A
 * private stand-in until the shared {@code io.sf2loki.salesforce.soql} builder lands; the query
 * shapes themselves are in {@link ObjectQueries}.
 */
final class ObjectSoql {

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_]+");
  private static final Pattern RECORD_ID = Pattern.compile("[A-Za-z0-9]{15}([A-Za-z0-9]{3})?");
  private static final DateTimeFormatter LITERAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private ObjectSoql() {}

  static boolean isIdentifier(String name) {
    return name != null && IDENTIFIER.matcher(name).matches();
  }

  static boolean isRecordId(String id) {
    return id != null && RECORD_ID.matcher(id).matches();
  }

  /** A validated record id as a quoted literal (ids have nothing to escape once validated). */
  static String idLiteral(String id) {
    if (!isRecordId(id)) {
      throw new IllegalArgumentException("not a record id: " + id);
    }
    return "'" + id + "'";
  }

  /** UTC, always milliseconds, {@code Z}. */
  static String literal(Instant t) {
    return LITERAL.format(t);
  }
}
