package io.sf2loki.testkit.loki;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The Go and Prometheus text forms (and Go's string length) that Loki's rejection messages are
 * built from, so the fake's 400 bodies read byte for byte like a real Loki's. Every time is
 * rendered in UTC, as Loki (running with {@code TZ} unset) prints it.
 */
final class GoFormats {

  private static final Pattern LEGACY_LABEL_NAME = Pattern.compile("^[a-zA-Z_][a-zA-Z0-9_]*$");
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private GoFormats() {}

  /**
   * Go's {@code t.Format(time.RFC3339)}: whole seconds, the fraction truncated (not rounded), UTC
   * as {@code Z}, e.g. {@code 2022-10-10T13:25:44Z}.
   */
  static String rfc3339(long epochNanos) {
    LocalDateTime t = utc(epochNanos);
    StringBuilder b = new StringBuilder(20);
    appendDate(b, t).append('T');
    appendClock(b, t).append('Z');
    return b.toString();
  }

  /**
   * Go's {@code t.String()} for a UTC time, layout {@code 2006-01-02 15:04:05.999999999 -0700 MST}:
   * the fraction has its trailing zeros trimmed and is left out when zero, e.g. {@code 2022-10-10
   * 13:25:44.5 +0000 UTC} or {@code 2022-10-10 13:25:44 +0000 UTC}.
   */
  static String timeString(long epochNanos) {
    LocalDateTime t = utc(epochNanos);
    StringBuilder b = new StringBuilder(40);
    appendDate(b, t).append(' ');
    appendClock(b, t);
    int nanos = t.getNano();
    if (nanos != 0) {
      String fraction = String.format("%09d", nanos);
      int end = fraction.length();
      while (fraction.charAt(end - 1) == '0') {
        end--;
      }
      b.append('.').append(fraction, 0, end);
    }
    return b.append(" +0000 UTC").toString();
  }

  /**
   * Prometheus' {@code labels.Labels.String()}: {@code {a="b", c="d"}}, names in byte order of
   * their UTF-8 form, {@code ", "} between pairs, values (and names that are not legacy label
   * names) quoted as {@link #quote} does.
   */
  static String labels(Map<String, String> labels) {
    List<Map.Entry<String, String>> sorted = new ArrayList<>(labels.entrySet());
    sorted.sort((x, y) -> compareCodePoints(x.getKey(), y.getKey()));
    StringBuilder b = new StringBuilder().append('{');
    for (int i = 0; i < sorted.size(); i++) {
      if (i > 0) {
        b.append(", ");
      }
      String name = sorted.get(i).getKey();
      b.append(LEGACY_LABEL_NAME.matcher(name).matches() ? name : quote(name));
      b.append('=').append(quote(sorted.get(i).getValue()));
    }
    return b.append('}').toString();
  }

  /**
   * Go's {@code strconv.Quote}: double-quoted, {@code \} and {@code "} backslashed, {@code \a \b \f
   * \n \r \t \v} by name, other control characters as {@code \xNN}, other non-printable code points
   * as {@code \}{@code uNNNN} or {@code \}{@code UNNNNNNNN}; printable ones (letters, marks,
   * numbers, punctuation, symbols and the ASCII space) as they are. A lone surrogate, which UTF-8
   * cannot carry, prints as U+FFFD, as Go decodes it.
   */
  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      appendQuoted(b, cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE ? 0xFFFD : cp);
    }
    return b.append('"').toString();
  }

  /** Go's {@code len(s)}: the UTF-8 byte length, which is what Loki's size limits count. */
  static int len(String s) {
    int n = s.length();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        n += 1; // a pair is 4 bytes
      } else if (c >= 0x800) {
        n += 2;
      } else if (c >= 0x80) {
        n += 1;
      }
    }
    return n;
  }

  private static void appendQuoted(StringBuilder b, int cp) {
    if (cp == '"' || cp == '\\') {
      b.append('\\').append((char) cp);
      return;
    }
    if (isPrint(cp)) {
      b.appendCodePoint(cp);
      return;
    }
    switch (cp) {
      case 0x07 -> b.append("\\a");
      case '\b' -> b.append("\\b");
      case '\f' -> b.append("\\f");
      case '\n' -> b.append("\\n");
      case '\r' -> b.append("\\r");
      case '\t' -> b.append("\\t");
      case 0x0B -> b.append("\\v");
      default -> {
        if (cp < ' ' || cp == 0x7F) {
          b.append("\\x");
          appendHex(b, cp, 2);
        } else if (cp < 0x10000) {
          b.append("\\u");
          appendHex(b, cp, 4);
        } else {
          b.append("\\U");
          appendHex(b, cp, 8);
        }
      }
    }
  }

  /** Go's {@code unicode.IsPrint}: categories L, M, N, P and S, plus U+0020. */
  private static boolean isPrint(int cp) {
    if (cp == ' ') {
      return true;
    }
    return switch (Character.getType(cp)) {
      case Character.UPPERCASE_LETTER,
          Character.LOWERCASE_LETTER,
          Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER,
          Character.OTHER_LETTER,
          Character.NON_SPACING_MARK,
          Character.ENCLOSING_MARK,
          Character.COMBINING_SPACING_MARK,
          Character.DECIMAL_DIGIT_NUMBER,
          Character.LETTER_NUMBER,
          Character.OTHER_NUMBER,
          Character.CONNECTOR_PUNCTUATION,
          Character.DASH_PUNCTUATION,
          Character.START_PUNCTUATION,
          Character.END_PUNCTUATION,
          Character.INITIAL_QUOTE_PUNCTUATION,
          Character.FINAL_QUOTE_PUNCTUATION,
          Character.OTHER_PUNCTUATION,
          Character.MATH_SYMBOL,
          Character.CURRENCY_SYMBOL,
          Character.MODIFIER_SYMBOL,
          Character.OTHER_SYMBOL ->
          true;
      default -> false;
    };
  }

  private static void appendHex(StringBuilder b, int value, int digits) {
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      b.append(HEX[(value >>> shift) & 0xF]);
    }
  }

  /** Code point order, which is the byte order of the UTF-8 forms Go compares. */
  private static int compareCodePoints(String x, String y) {
    int i = 0;
    int j = 0;
    while (i < x.length() && j < y.length()) {
      int a = x.codePointAt(i);
      int c = y.codePointAt(j);
      if (a != c) {
        return Integer.compare(a, c);
      }
      i += Character.charCount(a);
      j += Character.charCount(c);
    }
    return Integer.compare(x.length() - i, y.length() - j);
  }

  private static LocalDateTime utc(long epochNanos) {
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(epochNanos, 1_000_000_000L),
        (int) Math.floorMod(epochNanos, 1_000_000_000L),
        ZoneOffset.UTC);
  }

  private static StringBuilder appendDate(StringBuilder b, LocalDateTime t) {
    pad(b, t.getYear(), 4).append('-');
    pad(b, t.getMonthValue(), 2).append('-');
    return pad(b, t.getDayOfMonth(), 2);
  }

  private static StringBuilder appendClock(StringBuilder b, LocalDateTime t) {
    pad(b, t.getHour(), 2).append(':');
    pad(b, t.getMinute(), 2).append(':');
    return pad(b, t.getSecond(), 2);
  }

  private static StringBuilder pad(StringBuilder b, int value, int width) {
    String digits = Integer.toString(value);
    for (int k = digits.length(); k < width; k++) {
      b.append('0');
    }
    return b.append(digits);
  }
}
