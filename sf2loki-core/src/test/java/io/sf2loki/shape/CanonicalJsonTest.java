package io.sf2loki.shape;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

  @Test
  void keysAreSortedWithPythonSeparatorsWhateverTheInsertionOrder() {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("b", 1L);
    a.put("a", "x");
    a.put("C", true);
    Map<String, Object> b = new TreeMap<>(a);

    assertThat(CanonicalJson.write(a)).isEqualTo("{\"C\": true, \"a\": \"x\", \"b\": 1}");
    assertThat(CanonicalJson.write(b)).isEqualTo(CanonicalJson.write(a));
  }

  @Test
  void aValueWhoseTextIsItselfWrittenAsJsonDoesNotDisturbTheLineAroundIt() {
    Object nested =
        new Object() {
          @Override
          public String toString() {
            return CanonicalJson.write(Map.of("inner", 1L));
          }
        };
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("a", "x");
    line.put("b", nested);

    assertThat(CanonicalJson.write(line))
        .isEqualTo("{\"a\": \"x\", \"b\": \"{\\\"inner\\\": 1}\"}");
    assertThat(CanonicalJson.write(List.of("after"))).isEqualTo("[\"after\"]");
  }

  @Test
  void aStringWithNothingToEscapeIsWrittenAsItIsAndACharSequenceLikeIt() {
    assertThat(CanonicalJson.write("plain ascii text")).isEqualTo("\"plain ascii text\"");
    assertThat(CanonicalJson.write(new StringBuilder("plain"))).isEqualTo("\"plain\"");
  }

  @Test
  void stringsEscapeLikePythonEnsureAscii() {
    String s = "q\"b\\n\n\t\u0001/é€😀\u007f";
    assertThat(CanonicalJson.write(s))
        .isEqualTo("\"q\\\"b\\\\n\\n\\t\\u0001/\\u00e9\\u20ac\\ud83d\\ude00\\u007f\"");
  }

  @Test
  void floatsUsePythonReprAndNonFiniteBecomeStrings() {
    assertThat(
            Arrays.asList(1234.0, 0.5, 1e-5, 1.5e16, 1e15, 0.0001, -2.25, 100.0, 1e22, Double.NaN)
                .stream()
                .map(CanonicalJson::write)
                .toList())
        .containsExactly(
            "1234.0",
            "0.5",
            "1e-05",
            "1.5e+16",
            "1000000000000000.0",
            "0.0001",
            "-2.25",
            "100.0",
            "1e+22",
            "\"NaN\"");
  }

  @Test
  void nestedValuesNullsAndBytesAreCanonical() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("z", null);
    m.put("list", List.of(1L, "two", Map.of("y", 2L, "x", 1L)));
    m.put("raw", new byte[] {1, 2, 3});
    assertThat(CanonicalJson.write(m))
        .isEqualTo(
            "{\"list\": [1, \"two\", {\"x\": 1, \"y\": 2}], \"raw\": \"AQID\", \"z\": null}");
  }

  @Test
  void aSalesforceRecordRendersToIdenticalBytesOnEveryRun() throws Exception {
    String json =
        "{\"attributes\":{\"type\":\"LoginEvent\",\"url\":\"/x\"},\"Id\":\"0Yw000000000001AAA\","
            + "\"EventDate\":\"2026-06-30T01:00:00.000+0000\",\"LogFileLength\":2692.0,"
            + "\"Count\":3,\"Nested\":{\"attributes\":{\"type\":\"User\"},\"Name\":\"Ann\"}}";
    ObjectMapper mapper = new ObjectMapper();
    String first = CanonicalJson.write(Payloads.fromJson(mapper.readTree(json)));
    String second = CanonicalJson.write(Payloads.fromJson(mapper.readTree(json)));

    assertThat(first)
        .isEqualTo(
            "{\"Count\": 3, \"EventDate\": \"2026-06-30T01:00:00.000+0000\", \"Id\":"
                + " \"0Yw000000000001AAA\", \"LogFileLength\": 2692.0, \"Nested\": {\"Name\":"
                + " \"Ann\"}}");
    assertThat(second).isEqualTo(first);
  }

  @Test
  void floatsAreTheShortestRoundTripDigitsOfEveryMagnitude() {
    Random random = new Random(7);
    for (int i = 0; i < 30_000; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (Double.isFinite(d)) {
        assertThat(CanonicalJson.formatDouble(d)).as("%s", d).isEqualTo(pythonRepr(d));
      }
    }
  }

  /** The rule spelled out on the exact decimal of Double.toString (the earlier implementation). */
  static String pythonRepr(double d) {
    if (d == 0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    BigDecimal exact = new BigDecimal(Double.toString(d)).stripTrailingZeros();
    String digits = exact.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - exact.scale();
    String sign = d < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      return sign
          + mantissa
          + "e"
          + (exponent < 0 ? "-" : "+")
          + String.format(Locale.ROOT, "%02d", Math.abs(exponent));
    }
    if (exponent < 0) {
      return sign + "0." + "0".repeat(-exponent - 1) + digits;
    }
    if (digits.length() <= exponent + 1) {
      return sign + digits + "0".repeat(exponent + 1 - digits.length()) + ".0";
    }
    return sign + digits.substring(0, exponent + 1) + "." + digits.substring(exponent + 1);
  }

  @Test
  void keysSortByCodePointEvenWhereUtf16OrderDiffers() {
    char[] alphabet = {'a', 'b', '\uE000', '\uFFFF', '\uD83D', '\uDE00', '\uD800', 'z'};
    Random random = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      String a = randomString(random, alphabet);
      String b = randomString(random, alphabet);
      int expected =
          Integer.signum(Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray()));
      assertThat(Integer.signum(CanonicalJson.compareCodePoints(a, b)))
          .as("%s vs %s", a, b)
          .isEqualTo(expected);
    }
  }

  private static String randomString(Random random, char[] alphabet) {
    StringBuilder s = new StringBuilder();
    for (int n = random.nextInt(4); n > 0; n--) {
      s.append(alphabet[random.nextInt(alphabet.length)]);
    }
    return s.toString();
  }
}
