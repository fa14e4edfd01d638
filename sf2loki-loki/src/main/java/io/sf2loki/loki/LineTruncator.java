package io.sf2loki.loki;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The per-line cap (loki-push.md §10.4): a line over {@code maxBytes} UTF-8 bytes is cut on a
 * character boundary and {@code …[truncated, original N bytes]} is appended inside the cap; if the
 * cap cannot hold the marker the line is cut hard. Idempotent: a truncated line fits the cap, so
 * re-applying it during bisection or a retry changes nothing.
 */
final class LineTruncator {

  private final long maxBytes;

  /**
   * @param maxBytes the cap; 0 disables truncation
   */
  LineTruncator(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** The truncated line, or empty when {@code line} fits (or the cap is disabled). */
  Optional<String> truncate(String line) {
    if (maxBytes <= 0 || line.length() <= maxBytes / 4) {
      return Optional.empty(); // fast path: at most 4 bytes per char, so this fits
    }
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= maxBytes) {
      return Optional.empty();
    }
    int cap = (int) Math.min(maxBytes, Integer.MAX_VALUE);
    String marker = "\u2026[truncated, original " + bytes.length + " bytes]";
    int markerBytes = marker.getBytes(StandardCharsets.UTF_8).length;
    if (markerBytes > cap) {
      return Optional.of(new String(bytes, 0, boundary(bytes, cap), StandardCharsets.UTF_8));
    }
    int keep = boundary(bytes, cap - markerBytes);
    return Optional.of(new String(bytes, 0, keep, StandardCharsets.UTF_8) + marker);
  }

  /** The largest cut ≤ {@code limit} that does not split a UTF-8 sequence. */
  private static int boundary(byte[] bytes, int limit) {
    int cut = limit;
    while (cut > 0 && cut < bytes.length && (bytes[cut] & 0xC0) == 0x80) {
      cut--;
    }
    return cut;
  }
}
