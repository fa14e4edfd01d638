package io.sf2loki.testkit.loki;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DecodedEntryTest {

  @Test
  void anEntryReadFromBytesEqualsTheSameEntryBuiltFromAStringWithTheSameHash() {
    String line = "ünï ✓ line";
    byte[] body = ("header" + line + "trailer").getBytes(StandardCharsets.UTF_8);
    int at = "header".length();
    DecodedEntry fromBytes =
        new DecodedEntry(
            5, body, at, line.getBytes(StandardCharsets.UTF_8).length, Map.of("k", "v"));
    DecodedEntry fromString = new DecodedEntry(5, line, Map.of("k", "v"));

    assertThat(fromBytes).isEqualTo(fromString);
    assertThat(fromBytes.hashCode()).isEqualTo(fromString.hashCode());
    assertThat(fromBytes.line()).isEqualTo(line);
  }

  @Test
  void entriesThatCompareEqualHashEqualEvenWhenAStringLineHasALoneSurrogate() {
    DecodedEntry surrogate = new DecodedEntry(1, "a\uD800", Map.of());
    DecodedEntry question = new DecodedEntry(1, "a?", Map.of());

    assertThat(surrogate).isEqualTo(question); // both are "a?" on the wire
    assertThat(surrogate.hashCode()).isEqualTo(question.hashCode());
  }
}
