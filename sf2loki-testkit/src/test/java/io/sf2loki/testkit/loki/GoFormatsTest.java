package io.sf2loki.testkit.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.ScaledTimeout;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

@ScaledTimeout(seconds = 10)
class GoFormatsTest {

  static long nanos(String instant) {
    Instant t = Instant.parse(instant);
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  @Test
  void timeStringTrimsTrailingZerosOfTheFraction() {
    assertThat(GoFormats.timeString(nanos("2022-10-10T13:25:44.500Z")))
        .isEqualTo("2022-10-10 13:25:44.5 +0000 UTC");
    assertThat(GoFormats.timeString(nanos("2022-10-10T13:25:44.000000001Z")))
        .isEqualTo("2022-10-10 13:25:44.000000001 +0000 UTC");
    assertThat(GoFormats.timeString(nanos("2022-10-10T13:25:44.123456789Z")))
        .isEqualTo("2022-10-10 13:25:44.123456789 +0000 UTC");
  }

  @Test
  void timeStringLeavesOutAZeroFraction() {
    assertThat(GoFormats.timeString(nanos("2022-10-10T13:25:44Z")))
        .isEqualTo("2022-10-10 13:25:44 +0000 UTC");
  }

  @Test
  void rfc3339TruncatesToWholeSeconds() {
    assertThat(GoFormats.rfc3339(nanos("2022-10-10T13:25:44.999999999Z")))
        .isEqualTo("2022-10-10T13:25:44Z");
    assertThat(GoFormats.rfc3339(nanos("2022-10-28T23:10:16Z"))).isEqualTo("2022-10-28T23:10:16Z");
  }

  @Test
  void rfc3339TruncatesTowardThePastBeforeTheEpoch() {
    assertThat(GoFormats.rfc3339(-1)).isEqualTo("1969-12-31T23:59:59Z");
    assertThat(GoFormats.timeString(-1)).isEqualTo("1969-12-31 23:59:59.999999999 +0000 UTC");
  }

  @Test
  void labelsAreSortedByNameAndSeparatedByCommaSpace() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("job", "sf2loki");
    labels.put("a", "b");

    assertThat(GoFormats.labels(labels)).isEqualTo("{a=\"b\", job=\"sf2loki\"}");
    assertThat(GoFormats.labels(Map.of())).isEqualTo("{}");
  }

  @Test
  void labelValuesEscapeQuotesBackslashesAndNewlines() {
    assertThat(GoFormats.labels(Map.of("a", "q\"x\ny\\z"))).isEqualTo("{a=\"q\\\"x\\ny\\\\z\"}");
  }

  @Test
  void labelNamesThatAreNotLegacyNamesAreQuoted() {
    assertThat(GoFormats.labels(Map.of("1bad", "x"))).isEqualTo("{\"1bad\"=\"x\"}");
  }

  @Test
  void quoteEscapesControlAndNonPrintableCharactersAsGoDoes() {
    assertThat(GoFormats.quote("\t\r\u0007\u000b\b\f")).isEqualTo("\"\\t\\r\\a\\v\\b\\f\"");
    assertThat(GoFormats.quote("\u0001\u007f")).isEqualTo("\"\\x01\\x7f\"");
    assertThat(GoFormats.quote("a\u00a0b\ue000")).isEqualTo("\"a\\u00a0b\\ue000\"");
    assertThat(GoFormats.quote(new String(Character.toChars(0xF0000))))
        .isEqualTo("\"\\U000f0000\"");
  }

  @Test
  void quoteKeepsPrintableUnicodeAndSpaces() {
    String smile = new String(Character.toChars(0x1F600));

    assertThat(GoFormats.quote("é ü " + smile)).isEqualTo("\"é ü " + smile + "\"");
  }

  @Test
  void lenCountsUtf8Bytes() {
    assertThat(GoFormats.len("a")).isEqualTo(1);
    assertThat(GoFormats.len("é€")).isEqualTo(2 + 3);
    assertThat(GoFormats.len(new String(Character.toChars(0x1F600)))).isEqualTo(4);
  }

  @Test
  void quotePrintsALoneSurrogateAsTheReplacementCharacter() {
    assertThat(GoFormats.quote("x\ud800")).isEqualTo("\"x\ufffd\"");
  }
}
