package io.sf2loki.salesforce.soql;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/**
 * Validation and escaping of the values interpolated into SOQL. Each method returns the text that
 * goes into the query or throws {@link InvalidSoqlValueException}.
 */
public final class Soql {

  private static final Pattern RECORD_ID = Pattern.compile("[A-Za-z0-9]{15}([A-Za-z0-9]{3})?");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_]+");
  private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9._%+\\-@]+");
  private static final DateTimeFormatter LITERAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Soql() {}

  /** True when {@code name} is a valid sObject, field or event type name. */
  public static boolean isIdentifier(String name) {
    return name != null && IDENTIFIER.matcher(name).matches();
  }

  /** An sObject, field or event type name: {@code ^[A-Za-z0-9_]+$}. */
  public static String identifier(String name) {
    if (!isIdentifier(name)) {
      throw new InvalidSoqlValueException("identifier", name);
    }
    return name;
  }

  /** True when {@code id} is a 15- or 18-character record id. */
  public static boolean isRecordId(String id) {
    return id != null && RECORD_ID.matcher(id).matches();
  }

  /** A record id, validated and quoted: {@code '0ATxx...'}. */
  public static String idLiteral(String id) {
    if (!isRecordId(id)) {
      throw new InvalidSoqlValueException("record id", id);
    }
    return stringLiteral(id);
  }

  /** An ApexLog username, validated and quoted. */
  public static String usernameLiteral(String username) {
    if (username == null || !USERNAME.matcher(username).matches()) {
      throw new InvalidSoqlValueException("username", username);
    }
    return stringLiteral(username);
  }

  /** An EventLogFile interval: exactly {@code Hourly} or {@code Daily}, quoted. */
  public static String intervalLiteral(String interval) {
    if (!"Hourly".equals(interval) && !"Daily".equals(interval)) {
      throw new InvalidSoqlValueException("interval", interval);
    }
    return stringLiteral(interval);
  }

  /** Any other string, single-quoted with {@code \ ' " \n \r \t \b \f} backslash-escaped. */
  public static String stringLiteral(String value) {
    if (value == null) {
      throw new InvalidSoqlValueException("string", null);
    }
    StringBuilder out = new StringBuilder(value.length() + 2).append('\'');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\'' -> out.append("\\'");
        case '"' -> out.append("\\\"");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> out.append(c);
      }
    }
    return out.append('\'').toString();
  }

  /** A datetime literal: UTC, always milliseconds, {@code Z}, unquoted. */
  public static String datetimeLiteral(Instant t) {
    return LITERAL.format(t);
  }
}
