package io.sf2loki.testkit.salesforce;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Small helpers shared by the fake's handlers: form decoding and Salesforce-shaped responses.
 *
 * <p>The JDK server stamps every response with a {@code Date} header from the machine's real clock
 * (it overwrites any handler value), so clock-skew tests shift the client's clock instead.
 */
final class Exchanges {

  Exchanges() {}

  /** Decodes {@code a=b&c=d} with form rules ({@code +} and {@code %20} are both spaces). */
  static Map<String, String> decodeForm(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8),
          URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  static String readBody(HttpExchange ex) throws IOException {
    try (InputStream in = ex.getRequestBody()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  void send(HttpExchange ex, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", contentType);
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  void json(HttpExchange ex, int status, String body) throws IOException {
    send(ex, status, "application/json;charset=UTF-8", body);
  }

  /** A Salesforce REST error: a JSON array of {message, errorCode}. */
  void restError(HttpExchange ex, int status, String errorCode, String message) throws IOException {
    json(
        ex,
        status,
        "[{\"message\":" + Json.quote(message) + ",\"errorCode\":" + Json.quote(errorCode) + "}]");
  }

  /** An OAuth error: {error, error_description}. */
  void oauthError(HttpExchange ex, int status, String error, String description)
      throws IOException {
    json(
        ex,
        status,
        "{\"error\":"
            + Json.quote(error)
            + ",\"error_description\":"
            + Json.quote(description)
            + "}");
  }
}
