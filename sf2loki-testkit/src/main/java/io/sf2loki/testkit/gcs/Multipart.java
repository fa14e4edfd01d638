package io.sf2loki.testkit.gcs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Splits a {@code multipart/related} body into part bodies (headers dropped), binary-safe. */
final class Multipart {

  private Multipart() {}

  static List<byte[]> parts(byte[] body, String contentType) {
    String boundary = null;
    for (String param : contentType.split(";")) {
      String p = param.trim();
      if (p.startsWith("boundary=")) {
        boundary = p.substring("boundary=".length()).replace("\"", "");
      }
    }
    if (boundary == null) {
      throw new IllegalArgumentException("multipart body without boundary");
    }
    byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.US_ASCII);
    List<byte[]> parts = new ArrayList<>();
    int start = indexOf(body, delimiter, 0);
    while (start >= 0) {
      int partStart = start + delimiter.length;
      if (partStart + 1 < body.length && body[partStart] == '-' && body[partStart + 1] == '-') {
        break; // closing delimiter
      }
      int next = indexOf(body, delimiter, partStart);
      if (next < 0) {
        break;
      }
      byte[] part = Arrays.copyOfRange(body, partStart, next);
      int headersEnd = indexOf(part, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
      int contentStart = headersEnd < 0 ? 0 : headersEnd + 4;
      int contentEnd = part.length;
      if (contentEnd >= 2 && part[contentEnd - 2] == '\r' && part[contentEnd - 1] == '\n') {
        contentEnd -= 2;
      }
      parts.add(Arrays.copyOfRange(part, contentStart, Math.max(contentStart, contentEnd)));
      start = next;
    }
    return parts;
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = from; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
