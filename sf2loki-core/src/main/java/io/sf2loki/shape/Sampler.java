package io.sf2loki.shape;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Deterministic sampling: keep an entry iff {@code rate >= 1.0} or {@code u64_be(first 8 bytes of
 * SHA-256(key)) mod 10 000 < rate × 10 000} (unsigned), so a replay or a restart samples exactly
 * the same entries.
 */
public final class Sampler {

  private Sampler() {}

  /** True when the entry with {@code key} is kept at {@code rate} (in (0, 1]). */
  public static boolean keep(String key, double rate) {
    if (rate >= 1.0) {
      return true;
    }
    long bucket = Long.remainderUnsigned(prefix(key), 10_000L);
    return bucket < rate * 10_000;
  }

  private static long prefix(String key) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest, 0, 8).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }
}
