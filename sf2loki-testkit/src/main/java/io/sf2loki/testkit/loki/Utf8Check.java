package io.sf2loki.testkit.loki;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Strict UTF-8 validation as protobuf applies it to {@code string} fields: no overlong forms, no
 * surrogates, nothing above U+10FFFF, no truncated sequence. ASCII runs are skipped 32 bytes at a
 * time, which is most of a log line.
 */
final class Utf8Check {

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;

  private Utf8Check() {}

  static boolean isValid(byte[] b, int offset, int length) {
    int i = offset;
    int end = offset + length;
    while (i < end) {
      // Four words per step while they are all ASCII, then one, then byte by byte.
      if (end - i >= 32
          && (((long) LONGS.get(b, i)
                      | (long) LONGS.get(b, i + 8)
                      | (long) LONGS.get(b, i + 16)
                      | (long) LONGS.get(b, i + 24))
                  & HIGH_BITS)
              == 0) {
        i += 32;
        continue;
      }
      if (end - i >= 8 && ((long) LONGS.get(b, i) & HIGH_BITS) == 0) {
        i += 8;
        continue;
      }
      int c = b[i] & 0xFF;
      if (c < 0x80) {
        i++;
        continue;
      }
      int n = sequenceLength(c);
      if (n == 0 || end - i < n || !continuationsOk(b, i, n)) {
        return false;
      }
      i += n;
    }
    return true;
  }

  /** Bytes in the sequence a lead byte starts; 0 for a byte that cannot lead. */
  private static int sequenceLength(int lead) {
    if (lead >= 0xC2 && lead <= 0xDF) {
      return 2;
    }
    if (lead >= 0xE0 && lead <= 0xEF) {
      return 3;
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
      return 4;
    }
    return 0; // 0x80-0xC1 (continuation or overlong lead) and 0xF5-0xFF
  }

  private static boolean continuationsOk(byte[] b, int i, int n) {
    int lead = b[i] & 0xFF;
    int second = b[i + 1] & 0xFF;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    int lo = 0x80;
    int hi = 0xBF;
    if (lead == 0xE0) {
      lo = 0xA0;
    } else if (lead == 0xED) {
      hi = 0x9F;
    } else if (lead == 0xF0) {
      lo = 0x90;
    } else if (lead == 0xF4) {
      hi = 0x8F;
    }
    if (second < lo || second > hi) {
      return false;
    }
    for (int k = 2; k < n; k++) {
      if ((b[i + k] & 0xC0) != 0x80) {
        return false;
      }
    }
    return true;
  }
}
