package io.sf2loki.testkit.loki;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Utf8CheckTest {

  private static boolean jdkStrict(byte[] b) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  @Test
  void acceptsWellFormedTextOfEveryLength() {
    byte[] text = "plain ascii then ü, ✓ and 😀 at the end".getBytes(StandardCharsets.UTF_8);

    assertThat(Utf8Check.isValid(text, 0, text.length)).isTrue();
    assertThat(Utf8Check.isValid(text, 3, 10)).isTrue();
  }

  @Test
  void rejectsOverlongSurrogateOutOfRangeAndTruncatedSequences() {
    assertThat(Utf8Check.isValid(bytes(0xC0, 0x80), 0, 2)).isFalse(); // overlong NUL
    assertThat(Utf8Check.isValid(bytes(0xE0, 0x80, 0x80), 0, 3)).isFalse(); // overlong
    assertThat(Utf8Check.isValid(bytes(0xED, 0xA0, 0x80), 0, 3)).isFalse(); // surrogate
    assertThat(Utf8Check.isValid(bytes(0xF4, 0x90, 0x80, 0x80), 0, 4)).isFalse(); // > U+10FFFF
    assertThat(Utf8Check.isValid(bytes('a', 'b', 0xE2, 0x9C), 0, 4)).isFalse(); // truncated
    assertThat(Utf8Check.isValid(bytes(0x80), 0, 1)).isFalse(); // lone continuation
  }

  @Test
  void agreesWithTheJdksStrictDecoderOnRandomBytes() {
    SplittableRandom r = new SplittableRandom(7);
    String[] pieces = {"abcdefgh", "ü", "✓", "😀", "\u0000"};
    for (int round = 0; round < 20_000; round++) {
      StringBuilder sb = new StringBuilder();
      for (int k = r.nextInt(14); k >= 0; k--) { // up to 112 bytes: the 32-byte steps too
        sb.append(pieces[r.nextInt(pieces.length)]);
      }
      byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
      if (r.nextBoolean() && b.length > 0) {
        b[r.nextInt(b.length)] = (byte) r.nextInt(256); // maybe break it
      }
      assertThat(Utf8Check.isValid(b, 0, b.length))
          .as("%s", java.util.Arrays.toString(b))
          .isEqualTo(jdkStrict(b));
    }
  }
}
