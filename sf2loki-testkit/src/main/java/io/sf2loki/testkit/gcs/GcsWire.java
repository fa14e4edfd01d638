package io.sf2loki.testkit.gcs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/** The JSON API's wire forms: answers, error bodies, object metadata, hashes, query strings. */
final class GcsWire {

  static final ObjectMapper JSON = new ObjectMapper();

  private GcsWire() {}

  /**
   * One answer, built while the request is applied and sent afterwards (unless a fault loses it).
   *
   * @param status the HTTP status
   * @param headers response headers besides the JDK's own
   * @param body the body, empty for none
   */
  record Reply(int status, Map<String, String> headers, byte[] body) {

    Reply {
      headers = Map.copyOf(headers);
    }

    void send(HttpExchange ex) throws IOException {
      headers.forEach(ex.getResponseHeaders()::set);
      ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        ex.getResponseBody().write(body);
      }
    }
  }

  static Reply json(int status, JsonNode body) {
    try {
      return new Reply(
          status,
          Map.of("Content-Type", "application/json; charset=UTF-8"),
          JSON.writeValueAsBytes(body));
    } catch (IOException e) {
      throw new IllegalStateException("cannot write a JSON tree", e);
    }
  }

  /** The JSON API's error body: {@code {"error": {"code", "message", "errors": [{reason}]}}}. */
  static Reply error(int status, String reason, String message) {
    ObjectNode err = JSON.createObjectNode();
    ObjectNode inner = err.putObject("error");
    inner.put("code", status);
    inner.put("message", message);
    inner.putArray("errors").addObject().put("reason", reason).put("message", message);
    return json(status, err);
  }

  static ObjectNode metadataOf(GcsObject o) {
    ObjectNode n = JSON.createObjectNode();
    n.put("kind", "storage#object");
    n.put("id", o.bucket() + "/" + o.name() + "/" + o.generation());
    n.put("name", o.name());
    n.put("bucket", o.bucket());
    n.put("generation", Long.toString(o.generation())); // a string in the JSON API
    n.put("metageneration", "1");
    n.put("contentType", o.contentType());
    n.put("size", Long.toString(o.data().length));
    n.put("md5Hash", md5(o.data()));
    n.put("crc32c", crc32c(o.data()));
    n.put("storageClass", "STANDARD");
    n.put("timeCreated", "2026-01-01T00:00:00.000Z");
    n.put("updated", "2026-01-01T00:00:00.000Z");
    return n;
  }

  static Map<String, String> query(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      out.put(k, v);
    }
    return out;
  }

  static String segment(String path, int index) {
    return URLDecoder.decode(path.split("/")[index], StandardCharsets.UTF_8);
  }

  static String md5(byte[] data) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String crc32c(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data);
    return Base64.getEncoder()
        .encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }
}
