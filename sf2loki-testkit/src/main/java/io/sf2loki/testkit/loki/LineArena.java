package io.sf2loki.testkit.loki;

/**
 * Append-only storage for the UTF-8 bytes of stored lines, in large chunks. The fake keeps every
 * accepted line for the life of the process; packing them into a few large arrays (which the JVM
 * allocates outside the young generation and never copies) instead of one array per line keeps the
 * garbage collector's work independent of how many lines are stored. Not thread-safe: the {@link
 * Ingester} calls it under its lock.
 */
final class LineArena {

  /**
   * Bytes per chunk; a line longer than a quarter of it gets an array of its own. Just under 4 MiB
   * so that, with the array header, a chunk fills whole G1 regions (1, 2 or 4 MiB) instead of
   * spilling a few bytes into one more.
   */
  static final int CHUNK_BYTES = (4 << 20) - 64;

  /** Where a copied line lives. */
  record Slice(byte[] array, int offset) {}

  private byte[] chunk = new byte[0];
  private int used;

  /** Copies {@code src[offset, offset + length)} and says where it now lives. */
  Slice copy(byte[] src, int offset, int length) {
    if (length > CHUNK_BYTES / 4) {
      byte[] own = java.util.Arrays.copyOfRange(src, offset, offset + length);
      return new Slice(own, 0);
    }
    if (chunk.length - used < length) {
      chunk = new byte[CHUNK_BYTES];
      used = 0;
    }
    System.arraycopy(src, offset, chunk, used, length);
    Slice s = new Slice(chunk, used);
    used += length;
    return s;
  }

  /** Starts over; earlier slices stay valid (their chunks live as long as someone holds them). */
  void clear() {
    chunk = new byte[0];
    used = 0;
  }
}
