package io.sf2loki.testkit.loki;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Append-only storage for the bytes of stored lines and metadata, in large chunks, addressed by a
 * {@code long} (chunk index in the high half, offset in the low half) so a stored entry needs no
 * object of its own. The fake keeps every accepted line for the life of the process; packing them
 * into a few large arrays (which the JVM allocates outside the young generation and never copies)
 * instead of one array per line keeps the garbage collector's work independent of how many lines
 * are stored. Not thread-safe: the {@link Ingester} calls it under its lock.
 */
final class LineArena {

  /**
   * Bytes per chunk; a value longer than a quarter of it gets a chunk of its own. Just under 4 MiB
   * so that, with the array header, a chunk fills whole G1 regions (1, 2 or 4 MiB) instead of
   * spilling a few bytes into one more.
   */
  static final int CHUNK_BYTES = (4 << 20) - 64;

  private final List<byte[]> chunks = new ArrayList<>();
  private int current = -1; // index of the chunk being filled
  private int used;

  /** Copies {@code src[offset, offset + length)} and returns its address. */
  long append(byte[] src, int offset, int length) {
    if (length > CHUNK_BYTES / 4) {
      chunks.add(Arrays.copyOfRange(src, offset, offset + length));
      return address(chunks.size() - 1, 0);
    }
    if (current < 0 || CHUNK_BYTES - used < length) {
      chunks.add(new byte[CHUNK_BYTES]);
      current = chunks.size() - 1;
      used = 0;
    }
    System.arraycopy(src, offset, chunks.get(current), used, length);
    long at = address(current, used);
    used += length;
    return at;
  }

  /** The array holding the bytes at {@code address}. */
  byte[] array(long address) {
    return chunks.get((int) (address >>> 32));
  }

  /** Where in {@link #array} the bytes at {@code address} start. */
  static int offset(long address) {
    return (int) address;
  }

  /** True when the {@code length} bytes at {@code address} equal {@code other[from, from + n)}. */
  boolean equals(long address, int length, byte[] other, int from, int n) {
    int at = offset(address);
    return Arrays.equals(array(address), at, at + length, other, from, from + n);
  }

  /** The {@code length} bytes at {@code address} as a string. */
  String string(long address, int length) {
    return new String(array(address), offset(address), length, StandardCharsets.UTF_8);
  }

  /** Forgets everything (addresses handed out before are invalid). */
  void clear() {
    chunks.clear();
    current = -1;
    used = 0;
  }

  private static long address(int chunk, int offset) {
    return (long) chunk << 32 | offset;
  }
}
