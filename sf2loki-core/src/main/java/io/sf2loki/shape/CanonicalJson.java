package io.sf2loki.shape;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Canonical JSON text, byte-stable across runs so that a replay re-sends identical lines (invariant
 * 5) and equal to Python's {@code json.dumps(obj, sort_keys=True)} for JSON-native values: keys
 * sorted by code point, {@code ", "} and {@code ": "} separators, no trailing newline, every
 * non-ASCII character as a lowercase {@code \\uXXXX} escape (surrogate pairs above U+FFFF), control
 * characters escaped, {@code /} not escaped.
 *
 * <p>Values: {@code null}, {@link CharSequence}, {@link Boolean}, integral numbers, floating point
 * numbers (Python's {@code repr} format, see {@link #formatDouble}), {@link BigDecimal} (its plain
 * text), {@link Map} (keys by their string form), {@link Collection}, {@code byte[]} (standard
 * base64). Anything else is written as the string of its {@code toString()}.
 */
public final class CanonicalJson {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private CanonicalJson() {}

  // One buffer per thread, reused for every line: a fresh 256-char builder grew three or four times
  // for a typical 1 KB event and copied the text each time (docs/performance.md §4, fourth round).
  // Marked busy while in use, so a re-entrant write (a value's toString writing JSON) gets a
  // builder of its own; a flag rather than taking the buffer out of the slot and putting it back,
  // whose ThreadLocal bookkeeping cost a few percent of the Pub/Sub thread (seventh round).
  private static final ThreadLocal<Buffer> BUFFER = ThreadLocal.withInitial(Buffer::new);
  private static final int KEPT_CAPACITY = 64 * 1024; // a larger buffer is not kept

  private static final class Buffer {
    StringBuilder out = new StringBuilder(1024);
    boolean busy;
  }

  /** The canonical text of {@code value}. */
  public static String write(Object value) {
    Buffer buffer = BUFFER.get();
    if (buffer.busy) {
      StringBuilder own = new StringBuilder(1024);
      append(own, value);
      return own.toString();
    }
    buffer.busy = true;
    try {
      StringBuilder out = buffer.out;
      out.setLength(0);
      append(out, value);
      String text = out.toString();
      if (out.capacity() > KEPT_CAPACITY) {
        buffer.out = new StringBuilder(1024);
      }
      return text;
    } finally {
      buffer.busy = false;
    }
  }

  /**
   * The string form used for structured metadata, globs and hashing: strings as they are, every
   * other value as its canonical JSON text ({@code null} as {@code "null"}).
   */
  public static String stringForm(Object value) {
    return value instanceof CharSequence s ? s.toString() : write(value);
  }

  private static void append(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof CharSequence s) {
      appendQuoted(out, s);
    } else if (value instanceof Boolean b) {
      out.append(b.booleanValue());
    } else if (value instanceof Map<?, ?> m) {
      object(out, m);
    } else if (value instanceof Collection<?> c) {
      array(out, c);
    } else if (value instanceof byte[] bytes) {
      appendQuoted(out, Base64.getEncoder().encodeToString(bytes));
    } else if (value instanceof Number n) {
      number(out, n);
    } else {
      appendQuoted(out, value.toString());
    }
  }

  private static void object(StringBuilder out, Map<?, ?> map) {
    if (inCanonicalOrder(map)) {
      // Sources that know their fields build maps in canonical order (the Pub/Sub decoder does):
      // writing them as they iterate skips a list of entries and its sort per object.
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          out.append(", ");
        }
        first = false;
        appendQuoted(out, (String) e.getKey());
        out.append(": ");
        append(out, e.getValue());
      }
      out.append('}');
      return;
    }
    List<Map.Entry<String, Object>> entries = new ArrayList<>(map.size());
    for (Map.Entry<?, ?> e : map.entrySet()) {
      entries.add(Map.entry(String.valueOf(e.getKey()), boxed(e.getValue())));
    }
    entries.sort((a, b) -> compareCodePoints(a.getKey(), b.getKey()));
    out.append('{');
    for (int i = 0; i < entries.size(); i++) {
      if (i > 0) {
        out.append(", ");
      }
      appendQuoted(out, entries.get(i).getKey());
      out.append(": ");
      append(out, unboxed(entries.get(i).getValue()));
    }
    out.append('}');
  }

  /**
   * True when every key is a string and each is strictly after the one before it in code-point
   * order: the order {@link #object} would sort them into. One comparison per key and no allocation
   * beyond the iterator.
   */
  private static boolean inCanonicalOrder(Map<?, ?> map) {
    String previous = null;
    for (Object key : map.keySet()) {
      if (!(key instanceof String k) || (previous != null && compareCodePoints(previous, k) >= 0)) {
        return false;
      }
      previous = k;
    }
    return true;
  }

  // Map.entry rejects null values; a sentinel stands in for JSON null while sorting.
  private static final Object NULL = new Object();

  private static Object boxed(Object v) {
    return v == null ? NULL : v;
  }

  private static Object unboxed(Object v) {
    return v == NULL ? null : v;
  }

  private static void array(StringBuilder out, Collection<?> values) {
    out.append('[');
    boolean first = true;
    for (Object v : values) {
      if (!first) {
        out.append(", ");
      }
      first = false;
      append(out, v);
    }
    out.append(']');
  }

  private static void number(StringBuilder out, Number n) {
    if (n instanceof Double || n instanceof Float) {
      double d = n.doubleValue();
      if (Double.isFinite(d)) {
        out.append(formatDouble(d));
      } else {
        appendQuoted(out, Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
      }
    } else if (n instanceof BigDecimal bd) {
      out.append(bd.toString());
    } else if (n instanceof BigInteger) {
      out.append(n);
    } else {
      out.append(n.longValue());
    }
  }

  /**
   * Python's {@code repr(float)}: the shortest round-trip digits, positional between 1e-4 and 1e16
   * (always with a fractional part, {@code 1234.0}), otherwise scientific with a signed exponent of
   * at least two digits ({@code 1e-05}, {@code 1.5e+16}).
   */
  static String formatDouble(double d) {
    if (d == 0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    // Double.toString's digits, read straight from its text ("123.45", "1.0E-5"): parsing them
    // into a BigDecimal and formatting the exponent cost more than the rest of a line.
    String text = Double.toString(Math.abs(d));
    int e = text.indexOf('E');
    int end = e < 0 ? text.length() : e;
    int dot = text.indexOf('.');
    StringBuilder all = new StringBuilder(end);
    all.append(text, 0, dot).append(text, dot + 1, end);
    int point = dot + (e < 0 ? 0 : Integer.parseInt(text, e + 1, text.length(), 10));
    int first = 0;
    while (first < all.length() - 1 && all.charAt(first) == '0') {
      first++;
      point--; // a leading zero moves the first digit right
    }
    int last = all.length();
    while (last > first + 1 && all.charAt(last - 1) == '0') {
      last--;
    }
    String digits = all.substring(first, last);
    int exponent = point - 1; // decimal exponent of the first digit
    String sign = d < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      int abs = Math.abs(exponent);
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (abs < 10 ? "0" : "") + abs;
    }
    if (exponent < 0) {
      return sign + "0." + "0".repeat(-exponent - 1) + digits;
    }
    if (digits.length() <= exponent + 1) {
      return sign + digits + "0".repeat(exponent + 1 - digits.length()) + ".0";
    }
    return sign + digits.substring(0, exponent + 1) + "." + digits.substring(exponent + 1);
  }

  /**
   * The order of an object's keys in canonical JSON: by code point (Python's string order), not
   * Java's UTF-16 unit order. A source that builds its maps in this order lets {@link #write} skip
   * sorting them.
   */
  public static int compareCodePoints(String a, String b) {
    // The orders differ only where a surrogate meets U+E000..U+FFFF: compare UTF-16 units up to
    // the first difference and decode code points only when a surrogate is part of it.
    int n = Math.min(a.length(), b.length());
    for (int k = 0; k < n; k++) {
      char ca = a.charAt(k);
      char cb = b.charAt(k);
      if (ca != cb) {
        return Character.isSurrogate(ca) || Character.isSurrogate(cb)
            ? byCodePoints(a, b)
            : Character.compare(ca, cb);
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  private static int byCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /**
   * Appends {@code s} as a JSON string the way Python's {@code json.dumps} does by default
   * (non-ASCII and control characters as lowercase {@code \\uXXXX}); shared with the checkpoint
   * document writer so both stay byte-compatible with the Python sf2loki.
   */
  public static void appendQuoted(StringBuilder out, CharSequence s) {
    out.append('"');
    int n = s.length();
    int i = 0;
    while (i < n && plain(s.charAt(i))) {
      i++;
    }
    if (i == n) {
      // The common case, nothing to escape: a String goes in as one array copy, where a range of
      // it is appended char by char (docs/performance.md §4, seventh round).
      if (s instanceof String string) {
        out.append(string);
      } else {
        out.append(s);
      }
      out.append('"');
      return;
    }
    // Runs of characters that need no escape go in one bulk append: appending char by char was a
    // fifth of the Pub/Sub source thread's time (docs/performance.md §4, fifth round).
    int run = 0;
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (plain(c)) {
        continue;
      }
      if (run < i) {
        out.append(s, run, i);
      }
      run = i + 1;
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default ->
            out.append("\\u")
                .append(HEX[(c >> 12) & 0xf])
                .append(HEX[(c >> 8) & 0xf])
                .append(HEX[(c >> 4) & 0xf])
                .append(HEX[c & 0xf]);
      }
    }
    if (run < n) {
      out.append(s, run, n);
    }
    out.append('"');
  }

  /** Printable ASCII other than the quote and the backslash: written as it is. */
  private static boolean plain(char c) {
    return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\';
  }
}
