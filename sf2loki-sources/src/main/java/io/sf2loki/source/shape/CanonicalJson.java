package io.sf2loki.source.shape;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Writes canonical JSON, byte-identical with the Python sf2loki's {@code json.dumps(obj,
 * sort_keys=True)}: keys sorted by code point, {@code ", "} and {@code ": "} separators, every
 * non-ASCII character as a lowercase {@code \\uXXXX} escape (surrogate pairs above U+FFFF), {@code
 * /} not escaped. Values: strings, numbers, booleans, null, maps, lists and {@code byte[]} (as
 * standard base64). Non-finite floating point values become strings.
 */
public final class CanonicalJson {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private CanonicalJson() {}

  /** The canonical text of {@code value}. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder(128);
    append(out, value);
    return out.toString();
  }

  private static void append(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof CharSequence s) {
      string(out, s);
    } else if (value instanceof Boolean b) {
      out.append(b.booleanValue());
    } else if (value instanceof Map<?, ?> m) {
      object(out, m);
    } else if (value instanceof Collection<?> c) {
      array(out, c);
    } else if (value instanceof byte[] bytes) {
      string(out, Base64.getEncoder().encodeToString(bytes));
    } else if (value instanceof Number n) {
      number(out, n);
    } else {
      string(out, value.toString());
    }
  }

  private static void object(StringBuilder out, Map<?, ?> map) {
    List<String> keys = new ArrayList<>(map.size());
    for (Object k : map.keySet()) {
      keys.add(String.valueOf(k));
    }
    keys.sort(CanonicalJson::compareCodePoints);
    out.append('{');
    boolean first = true;
    for (String k : keys) {
      if (!first) {
        out.append(", ");
      }
      first = false;
      string(out, k);
      out.append(": ");
      append(out, map.containsKey(k) ? map.get(k) : lookupNonString(map, k));
    }
    out.append('}');
  }

  private static Object lookupNonString(Map<?, ?> map, String key) {
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (String.valueOf(e.getKey()).equals(key)) {
        return e.getValue();
      }
    }
    return null;
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
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        string(out, Double.toString(d));
      } else {
        out.append(Double.toString(d)); // one fixed format (Java's shortest repr)
      }
    } else if (n instanceof BigDecimal bd) {
      out.append(bd.toString());
    } else if (n instanceof BigInteger || n instanceof Long || n instanceof Integer) {
      out.append(n.toString());
    } else {
      out.append(n.longValue());
    }
  }

  /** Code-point order (Python's string order), not Java's UTF-16 unit order. */
  static int compareCodePoints(String a, String b) {
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

  private static void string(StringBuilder out, CharSequence s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append("\\u")
                .append(HEX[(c >> 12) & 0xf])
                .append(HEX[(c >> 8) & 0xf])
                .append(HEX[(c >> 4) & 0xf])
                .append(HEX[c & 0xf]);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
