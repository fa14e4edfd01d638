package io.sf2loki.testkit.loki;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Reading requests and writing answers on the JDK server, for the fake Loki's handlers. */
final class LokiExchanges {

  private static final int MAX_PRESIZED_BODY = 64 << 20;

  private LokiExchanges() {}

  /** The body in one exactly sized array when the length is announced (no chunk list). */
  static byte[] readBody(InputStream in, String contentLength) throws IOException {
    int n = announcedLength(contentLength);
    if (n < 0 || n > MAX_PRESIZED_BODY) {
      return in.readAllBytes();
    }
    byte[] body = new byte[n];
    int read = in.readNBytes(body, 0, n);
    return read == n ? body : Arrays.copyOf(body, read);
  }

  /** The {@code Content-Length} value, or -1 when absent or not a number. */
  static int announcedLength(String contentLength) {
    try {
      return contentLength == null ? -1 : Integer.parseInt(contentLength.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The request headers, names lower-case, first value of each. */
  static Map<String, String> headers(HttpExchange ex) {
    Map<String, String> headers = new HashMap<>();
    ex.getRequestHeaders()
        .forEach(
            (name, values) -> {
              if (!values.isEmpty()) {
                headers.put(name.toLowerCase(Locale.ROOT), values.get(0));
              }
            });
    return headers;
  }

  static void respond(HttpExchange ex, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    if (status == 204 || bytes.length == 0) {
      ex.sendResponseHeaders(status, -1);
      return;
    }
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
  }
}
