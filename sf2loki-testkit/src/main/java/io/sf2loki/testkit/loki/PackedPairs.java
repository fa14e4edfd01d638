package io.sf2loki.testkit.loki;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Structured metadata as bytes, so a stored entry keeps it in the {@link LineArena} instead of as a
 * map of strings (about seven objects per entry): each pair is the name and then the value, each a
 * varint byte length followed by UTF-8. Pairs are written in the map's order, so a {@link
 * SortedPairs} comes back sorted.
 */
final class PackedPairs {

  private static final byte[] EMPTY = new byte[0];

  private PackedPairs() {}

  /** {@code metadata} packed; empty for no pairs. */
  static byte[] pack(Map<String, String> metadata) {
    if (metadata.isEmpty()) {
      return EMPTY;
    }
    // Sized first, then written into one exact array: the fake packs every stored entry's pairs.
    byte[][] parts = new byte[metadata.size() * 2][];
    int[] at = {0, 0}; // next part, total size
    metadata.forEach(
        (name, value) -> {
          at[1] += part(parts, at[0]++, name);
          at[1] += part(parts, at[0]++, value);
        });
    byte[] out = new byte[at[1]];
    int pos = 0;
    for (byte[] part : parts) {
      int v = part.length;
      while ((v & ~0x7F) != 0) {
        out[pos++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      out[pos++] = (byte) v;
      System.arraycopy(part, 0, out, pos, part.length);
      pos += part.length;
    }
    return out;
  }

  /** Encodes {@code s} into {@code parts[i]}; its packed size (length prefix included). */
  private static int part(byte[][] parts, int i, String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    parts[i] = utf8;
    int prefix = 1;
    for (int v = utf8.length; (v & ~0x7F) != 0; v >>>= 7) {
      prefix++;
    }
    return prefix + utf8.length;
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
