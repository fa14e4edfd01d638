package io.sf2loki.pipeline;

/** UTF-8 byte lengths without encoding. */
final class Utf8 {

  private Utf8() {}

  static long length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
