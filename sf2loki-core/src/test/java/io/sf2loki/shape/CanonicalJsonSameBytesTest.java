package io.sf2loki.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The writer's shortcuts (a map already in canonical order written as it iterates, one reused
 * buffer per thread) change no byte: every line equals what the sorting writer before them wrote,
 * kept here as {@link Reference}.
 */
class CanonicalJsonSameBytesTest {

  private static final String[] KEYS = {
    "Id",
    "EventDate",
    "a",
    "B",
    "b",
    "",
    "é",
    "\uE000",
    "\uFFFF",
    "😀",
    "\uD800",
    "z z",
    "k\"q",
    "ChangeEventHeader",
    "Score",
    "10",
    "9",
    "ω"
  };
  private static final String[] STRINGS = {
    "",
    "x",
    "line\nbreak",
    "tab\t",
    "quote\"",
    "back\\slash",
    "ünïcødé",
    "€",
    "😀",
    "\u0001",
    "/slash",
    "a".repeat(300)
  };

  @Test
  void randomValuesOfEveryKindWriteTheBytesTheSortingWriterWrote() {
    Random random = new Random(34);
    for (int i = 0; i < 20_000; i++) {
      Object value = value(random, 0);
      assertThat(CanonicalJson.write(value)).as("%s", value).isEqualTo(Reference.write(value));
    }
  }

  @Test
  void mapsAlreadyInCanonicalOrderWriteTheBytesOfTheSameMapsUnordered() {
    Random random = new Random(35);
    for (int i = 0; i < 5_000; i++) {
      Map<String, Object> unordered = record(random, 0, new HashMap<>());
      Map<String, Object> ordered = new TreeMap<>(CanonicalJson::compareCodePoints);
      ordered.putAll(unordered);
      Map<String, Object> linked = new LinkedHashMap<>(ordered);

      String expected = Reference.write(unordered);
      assertThat(CanonicalJson.write(linked)).isEqualTo(expected);
      assertThat(CanonicalJson.write(unordered)).isEqualTo(expected);
    }
  }

  @Test
  void aWriteInsideAWriteDoesNotDisturbTheOuterLine() {
    Object inner =
        new Object() {
          @Override
          public String toString() {
            return CanonicalJson.write(Map.of("inner", List.of(1L, 2.5)));
          }
        };
    Map<String, Object> outer = new LinkedHashMap<>();
    outer.put("a", "x");
    outer.put("b", inner);

    assertThat(CanonicalJson.write(outer))
        .isEqualTo("{\"a\": \"x\", \"b\": \"{\\\"inner\\\": [1, 2.5]}\"}");
  }

  private static Object value(Random random, int depth) {
    int kind = random.nextInt(depth > 2 ? 8 : 11);
    return switch (kind) {
      case 0 -> null;
      case 1 -> STRINGS[random.nextInt(STRINGS.length)];
      case 2 -> random.nextBoolean();
      case 3 -> random.nextLong() >> random.nextInt(64);
      case 4 -> random.nextInt(100) < 5 ? Double.NaN : Double.longBitsToDouble(random.nextLong());
      case 5 -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
      case 6 -> new BigDecimal(BigInteger.valueOf(random.nextLong()), random.nextInt(10) - 3);
      case 7 -> random.nextBoolean() ? (float) random.nextGaussian() : random.nextInt();
      case 8 -> record(random, depth + 1, new LinkedHashMap<>());
      case 9 -> record(random, depth + 1, new TreeMap<>());
      default -> {
        List<Object> list = new ArrayList<>();
        for (int n = random.nextInt(4); n > 0; n--) {
          list.add(value(random, depth + 1));
        }
        yield list;
      }
    };
  }

  private static Map<String, Object> record(Random random, int depth, Map<String, Object> into) {
    for (int n = random.nextInt(8); n > 0; n--) {
      into.put(KEYS[random.nextInt(KEYS.length)], value(random, depth));
    }
    return into;
  }

  @Test
  void randomStringsQuoteAsTheCharByCharWriterDid() {
    // Characters on either side of every escape boundary, runs of them and surrogates, as a
    // String and as another CharSequence.
    char[] alphabet = {
      'a', 'Z', ' ', '~', '\u007f', '\u001f', '\u0000', '"', '\\', '/', '\n', '\r', '\t', '\b',
      '\f', '\u00e9', '\u20ac', '\ud83d', '\ude00', '\uffff'
    };
    Random random = new Random(36);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(40);
      for (int k = 0; k < length; k++) {
        char c = alphabet[random.nextInt(alphabet.length)];
        text.append(String.valueOf(c).repeat(1 + random.nextInt(random.nextBoolean() ? 1 : 20)));
      }
      StringBuilder expected = new StringBuilder("prefix");
      Reference.quoted(expected, text);
      StringBuilder fromString = new StringBuilder("prefix");
      CanonicalJson.appendQuoted(fromString, text.toString());
      StringBuilder fromBuilder = new StringBuilder("prefix");
      CanonicalJson.appendQuoted(fromBuilder, text);

      assertThat(fromString.toString()).isEqualTo(expected.toString());
      assertThat(fromBuilder.toString()).isEqualTo(expected.toString());
    }
  }

  /** The writer as it was before the shortcuts: every object's entries listed and sorted. */
  static final class Reference {
    static String write(Object value) {
      StringBuilder out = new StringBuilder(256);
      append(out, value);
      return out.toString();
    }

    private static void append(StringBuilder out, Object value) {
      if (value == null) {
        out.append("null");
      } else if (value instanceof CharSequence s) {
        quoted(out, s);
      } else if (value instanceof Boolean b) {
        out.append(b.booleanValue());
      } else if (value instanceof Map<?, ?> m) {
        List<Map.Entry<String, Object>> entries = new ArrayList<>();
        m.forEach(
            (k, v) -> entries.add(new java.util.AbstractMap.SimpleEntry<>(String.valueOf(k), v)));
        entries.sort((a, b) -> CanonicalJson.compareCodePoints(a.getKey(), b.getKey()));
        out.append('{');
        for (int i = 0; i < entries.size(); i++) {
          out.append(i > 0 ? ", " : "");
          quoted(out, entries.get(i).getKey());
          out.append(": ");
          append(out, entries.get(i).getValue());
        }
        out.append('}');
      } else if (value instanceof Collection<?> c) {
        out.append('[');
        boolean first = true;
        for (Object v : c) {
          out.append(first ? "" : ", ");
          first = false;
          append(out, v);
        }
        out.append(']');
      } else if (value instanceof byte[] bytes) {
        quoted(out, Base64.getEncoder().encodeToString(bytes));
      } else if (value instanceof Double || value instanceof Float) {
        double d = ((Number) value).doubleValue();
        if (Double.isFinite(d)) {
          out.append(CanonicalJsonTest.pythonRepr(d));
        } else {
          quoted(out, Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        }
      } else if (value instanceof BigDecimal || value instanceof BigInteger) {
        out.append(value);
      } else if (value instanceof Number n) {
        out.append(n.longValue());
      } else {
        quoted(out, value.toString());
      }
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** The string writer as it was before the bulk appends: one character at a time. */
    static void quoted(StringBuilder out, CharSequence s) {
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
}
