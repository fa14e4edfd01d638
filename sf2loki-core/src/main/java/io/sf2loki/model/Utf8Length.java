package io.sf2loki.model;

import java.nio.charset.StandardCharsets;

/** UTF-8 byte lengths of strings without encoding short ones. */
final class Utf8Length {

  /**
   * From this many chars on, {@link String#getBytes} is faster than a char loop: for an all-ASCII
   * string the JDK checks the bytes with a vectorised intrinsic and makes one plain copy (a 1 KiB
   * line: about 0.1–0.25 µs against 0.3–0.5 µs for the loop).
   */
  static final int ENCODE_FROM = 64;

  private Utf8Length() {}

  static int of(String s) {
    int n = s.length();
    if (n >= ENCODE_FROM) {
      return s.getBytes(StandardCharsets.UTF_8).length;
    }
    for (int i = 0; i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return s.getBytes(StandardCharsets.UTF_8).length;
      }
    }
    return n;
  }
}
