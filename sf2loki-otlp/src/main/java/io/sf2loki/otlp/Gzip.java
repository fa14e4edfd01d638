package io.sf2loki.otlp;

import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * gzip (RFC 1952) of a whole body at a chosen level, in one deflate pass into one output array.
 *
 * <p>Why not {@code GZIPOutputStream}: it always deflates at the default level (6), and fed by a
 * serialiser it deflates in as many native calls as the serialiser makes writes.
 */
final class Gzip {

  // magic, CM = deflate, no flags, no mtime, no extra flags, OS = unknown
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
  private static final int TRAILER = 8;

  private Gzip() {}

  /** {@code raw} gzipped at {@code level} (1 fastest to 9 smallest). */
  static byte[] compress(byte[] raw, int level) {
    // A first guess of the compressed size (these bodies deflate 5 to 7 times): grown if short.
    byte[] out = new byte[HEADER.length + raw.length / 3 + 64 + TRAILER];
    System.arraycopy(HEADER, 0, out, 0, HEADER.length);
    int n = HEADER.length;
    Deflater deflater = new Deflater(level, true);
    try {
      deflater.setInput(raw);
      deflater.finish();
      while (!deflater.finished()) {
        if (n == out.length - TRAILER) {
          out = Arrays.copyOf(out, out.length + Math.max(out.length / 2, 4096));
        }
        n += deflater.deflate(out, n, out.length - TRAILER - n);
      }
    } finally {
      deflater.end();
    }
    CRC32 crc = new CRC32();
    crc.update(raw);
    n = putIntLe(out, n, (int) crc.getValue());
    n = putIntLe(out, n, raw.length); // ISIZE: the length modulo 2^32
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  private static int putIntLe(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) (v >>> 16);
    b[at + 3] = (byte) (v >>> 24);
    return at + 4;
  }
}
