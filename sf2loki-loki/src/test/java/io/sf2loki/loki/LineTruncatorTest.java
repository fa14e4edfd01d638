package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LineTruncatorTest {

  static int bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  @Test
  void lineWithinTheCapIsLeftAlone() {
    assertThat(new LineTruncator(10).truncate("0123456789")).isEmpty();
  }

  @Test
  void overlongLineIsCutInsideTheCapWithTheMarker() {
    String cut = new LineTruncator(60).truncate("x".repeat(100)).orElseThrow();

    assertThat(cut)
        .isEqualTo(
            "x".repeat(60 - bytes("…[truncated, original 100 bytes]"))
                + "…[truncated, original 100 bytes]");
    assertThat(bytes(cut)).isEqualTo(60);
  }

  @Test
  void cutNeverSplitsAMultiByteCharacter() {
    String line = "€".repeat(50); // 3 bytes each
    String cut = new LineTruncator(40).truncate(line).orElseThrow();

    assertThat(cut).doesNotContain("\uFFFD");
    assertThat(bytes(cut)).isLessThanOrEqualTo(40);
    assertThat(cut).endsWith("…[truncated, original 150 bytes]");
  }

  @Test
  void capTooSmallForTheMarkerCutsHard() {
    assertThat(new LineTruncator(5).truncate("abcdefgh")).contains("abcde");
  }

  @Test
  void truncationIsIdempotent() {
    LineTruncator t = new LineTruncator(50);
    String once = t.truncate("y".repeat(500)).orElseThrow();

    assertThat(t.truncate(once)).isEmpty();
  }

  @Test
  void zeroDisablesTheCap() {
    assertThat(new LineTruncator(0).truncate("z".repeat(1_000_000))).isEmpty();
  }
}
