package io.sf2loki.testkit.loki;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Structured metadata as bytes, so a stored entry keeps it in the {@link LineArena} instead of as a
 * map of strings (about seven objects per entry): each pair is the name and then the value, each a
 * varint byte length followed by UTF-8. Pairs are written in the map's order, so a {@link
 * SortedPairs} comes back sorted.
 */
final class PackedPairs {

  private PackedPairs() {}

  /** {@code metadata} packed; empty for no pairs. */
  static byte[] pack(Map<String, String> metadata) {
    if (metadata.isEmpty()) {
      return new byte[0];
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(32 * metadata.size());
    metadata.forEach(
        (name, value) -> {
          write(out, name);
          write(out, value);
        });
    return out.toByteArray();
  }

  /** The pairs packed in {@code b[offset, offset + length)}. */
  static SortedPairs unpack(byte[] b, int offset, int length) {
    if (length == 0) {
      return SortedPairs.EMPTY;
    }
    String[] kv = new String[8];
    int n = 0;
    int[] pos = {offset};
    int end = offset + length;
    while (pos[0] < end) {
      if (n == kv.length) {
        kv = java.util.Arrays.copyOf(kv, n * 2);
      }
      kv[n++] = read(b, pos);
    }
    return SortedPairs.sorted(kv, n);
  }

  private static void write(ByteArrayOutputStream out, String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    int v = utf8.length;
    while ((v & ~0x7F) != 0) {
      out.write((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write(v);
    out.write(utf8, 0, utf8.length);
  }

  private static String read(byte[] b, int[] pos) {
    int length = 0;
    for (int shift = 0; ; shift += 7) {
      int c = b[pos[0]++];
      length |= (c & 0x7F) << shift;
      if ((c & 0x80) == 0) {
        break;
      }
    }
    String s = new String(b, pos[0], length, StandardCharsets.UTF_8);
    pos[0] += length;
    return s;
  }
}
