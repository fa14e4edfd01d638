package io.sf2loki.source.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

  @Test
  void keysAreSortedWithPythonSeparators() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("b", "2");
    m.put("a", List.of(1, true));
    m.put("c", null);
    assertThat(CanonicalJson.write(m)).isEqualTo("{\"a\": [1, true], \"b\": \"2\", \"c\": null}");
  }

  @Test
  void nonAsciiIsEscapedAsLowercaseUnicodeWithSurrogatePairs() {
    assertThat(CanonicalJson.write("Zürich ✓ 😀"))
        .isEqualTo("\"Z\\u00fcrich \\u2713 \\ud83d\\ude00\"");
  }

  @Test
  void controlCharactersQuotesAndBackslashesAreEscapedButSlashIsNot() {
    assertThat(CanonicalJson.write("a\"b\\c\nd\re\tf\u0001/g\u007f"))
        .isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001/g\\u007f\"");
  }

  @Test
  void keysSortByCodePointNotUtf16Unit() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("\uFF21", "fullwidth A");
    m.put("😀", "emoji");
    // U+FF21 < U+1F600 by code point, although its UTF-16 unit sorts after the high surrogate
    assertThat(CanonicalJson.write(m)).startsWith("{\"\\uff21\"");
  }

  @Test
  void nonFiniteNumbersBecomeStrings() {
    assertThat(CanonicalJson.write(List.of(Double.NaN, 1.5, 7L))).isEqualTo("[\"NaN\", 1.5, 7]");
  }
}
