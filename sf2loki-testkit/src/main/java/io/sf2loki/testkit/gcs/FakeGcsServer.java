package io.sf2loki.testkit.gcs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sf2loki.testkit.FaultQueue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;

/**
 * A fake of the subset of the GCS JSON API that google-cloud-storage uses for small objects:
 * multipart upload with {@code ifGenerationMatch}, metadata get, media download (optionally at a
 * generation) and delete. Every check-and-set runs under one lock, so it is linearizable and can
 * serve race tests. Faults can be scripted per operation: an error status before anything happens,
 * or a dropped connection after the write was applied (a lost response).
 */
public final class FakeGcsServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The operations faults can target. */
  public enum Operation {
    UPLOAD,
    GET_METADATA,
    DOWNLOAD,
    DELETE
  }

  /** A scripted fault: an HTTP status (0 = drop the connection after applying the request). */
  private record Fault(Operation operation, int status) {}

  private final HttpServer server;
  private final Object lock = new Object();
  private final Map<String, GcsObject> objects = new HashMap<>();
  private final FaultQueue<Fault> faults = new FaultQueue<>(f -> 1);
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private long nextGeneration = 1_700_000_000_000_000L;

  private FakeGcsServer(HttpServer server) {
    this.server = server;
  }

  /** Starts on 127.0.0.1 and a free port. */
  public static FakeGcsServer start() throws IOException {
    HttpServer http =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    FakeGcsServer fake = new FakeGcsServer(http);
    http.createContext("/", fake::handle);
    http.start();
    return fake;
  }

  /** {@code http://127.0.0.1:PORT}, for {@code StorageOptions.setHost}. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The next request of {@code operation} fails with {@code status} before doing anything. */
  public void failNext(Operation operation, int status) {
    synchronized (lock) {
      faults.add(new Fault(operation, status));
    }
  }

  /** The next request of {@code operation} is applied but its connection drops without answer. */
  public void dropResponseOfNext(Operation operation) {
    failNext(operation, 0);
  }

  /** Requests seen, as {@code OPERATION bucket/name [ifGenerationMatch=N]}. */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  /** The current object, if any. */
  public Optional<GcsObject> object(String bucket, String name) {
    synchronized (lock) {
      return Optional.ofNullable(objects.get(bucket + "/" + name));
    }
  }

  /** Stores an object unconditionally (test setup). */
  public GcsObject put(String bucket, String name, byte[] data) {
    synchronized (lock) {
      GcsObject o = new GcsObject(bucket, name, data.clone(), nextGeneration++, "application/json");
      objects.put(bucket + "/" + name, o);
      return o;
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      URI uri = ex.getRequestURI();
      String path = uri.getRawPath();
      Map<String, String> query = query(uri.getRawQuery());
      String method = ex.getRequestMethod();
      byte[] body;
      try (InputStream in = ex.getRequestBody()) {
        body = in.readAllBytes();
      }
      if ("gzip".equalsIgnoreCase(ex.getRequestHeaders().getFirst("Content-Encoding"))) {
        try (InputStream unzipped = new GZIPInputStream(new ByteArrayInputStream(body))) {
          body = unzipped.readAllBytes(); // the client gzips upload bodies
        }
      }
      if (method.equals("POST") && path.matches("/upload/storage/v1/b/[^/]+/o")) {
        upload(ex, segment(path, 5), query, body);
      } else if (path.matches("/(download/)?storage/v1/b/[^/]+/o/.+")) {
        int offset = path.startsWith("/download/") ? 1 : 0;
        String bucket = segment(path, 4 + offset);
        String name =
            URLDecoder.decode(
                path.replaceFirst("^/(download/)?storage/v1/b/[^/]+/o/", ""),
                StandardCharsets.UTF_8);
        if (method.equals("DELETE")) {
          delete(ex, bucket, name, query);
        } else if ("media".equals(query.get("alt"))) {
          download(ex, bucket, name, query);
        } else {
          metadata(ex, bucket, name);
        }
      } else {
        error(ex, 404, "notFound", "no route for " + method + " " + path);
      }
    }
  }

  private void upload(HttpExchange ex, String bucket, Map<String, String> query, byte[] body)
      throws IOException {
    String contentType = ex.getRequestHeaders().getFirst("Content-Type");
    String name = query.get("name");
    byte[] data = body;
    String mediaType = "application/octet-stream";
    if (contentType != null && contentType.startsWith("multipart/related")) {
      List<byte[]> parts = Multipart.parts(body, contentType);
      if (parts.size() != 2) {
        error(ex, 400, "invalid", "multipart upload needs metadata and media parts");
        return;
      }
      JsonNode meta = JSON.readTree(parts.get(0));
      name = meta.path("name").asText(name);
      mediaType = meta.path("contentType").asText(mediaType);
      data = parts.get(1);
    }
    if (name == null || name.isEmpty()) {
      error(ex, 400, "required", "object name is required");
      return;
    }
    String precondition = query.get("ifGenerationMatch");
    requests.add(
        "UPLOAD "
            + bucket
            + "/"
            + name
            + (precondition == null ? "" : " ifGenerationMatch=" + precondition));
    GcsObject stored;
    boolean drop;
    synchronized (lock) {
      Fault fault = takeFault(Operation.UPLOAD);
      if (fault != null && fault.status() != 0) {
        error(ex, fault.status(), "injected", "injected failure");
        return;
      }
      GcsObject current = objects.get(bucket + "/" + name);
      if (precondition != null && !matches(current, precondition)) {
        error(ex, 412, "conditionNotMet", "conditionNotMet");
        return;
      }
      stored = new GcsObject(bucket, name, data, nextGeneration++, mediaType);
      objects.put(bucket + "/" + name, stored);
      drop = fault != null;
    }
    if (drop) {
      return; // closing without a response: the client sees a dropped connection
    }
    json(ex, 200, metadataOf(stored));
  }

  private void metadata(HttpExchange ex, String bucket, String name) throws IOException {
    requests.add("GET_METADATA " + bucket + "/" + name);
    GcsObject current;
    synchronized (lock) {
      if (injected(ex, Operation.GET_METADATA)) {
        return;
      }
      current = objects.get(bucket + "/" + name);
    }
    if (current == null) {
      error(ex, 404, "notFound", "No such object: " + bucket + "/" + name);
    } else {
      json(ex, 200, metadataOf(current));
    }
  }

  private void download(HttpExchange ex, String bucket, String name, Map<String, String> query)
      throws IOException {
    requests.add(
        "DOWNLOAD "
            + bucket
            + "/"
            + name
            + (query.containsKey("generation") ? " generation=" + query.get("generation") : ""));
    GcsObject current;
    synchronized (lock) {
      if (injected(ex, Operation.DOWNLOAD)) {
        return;
      }
      current = objects.get(bucket + "/" + name);
    }
    String generation = query.get("generation");
    if (current == null
        || generation != null && !generation.equals(Long.toString(current.generation()))) {
      error(ex, 404, "notFound", "No such object: " + bucket + "/" + name);
      return;
    }
    ex.getResponseHeaders().set("Content-Type", current.contentType());
    ex.getResponseHeaders().set("x-goog-generation", Long.toString(current.generation()));
    ex.getResponseHeaders()
        .set("x-goog-hash", "crc32c=" + crc32c(current.data()) + ",md5=" + md5(current.data()));
    ex.sendResponseHeaders(200, current.data().length == 0 ? -1 : current.data().length);
    ex.getResponseBody().write(current.data());
  }

  private void delete(HttpExchange ex, String bucket, String name, Map<String, String> query)
      throws IOException {
    String precondition = query.get("ifGenerationMatch");
    requests.add(
        "DELETE "
            + bucket
            + "/"
            + name
            + (precondition == null ? "" : " ifGenerationMatch=" + precondition));
    boolean drop;
    synchronized (lock) {
      Fault fault = takeFault(Operation.DELETE);
      if (fault != null && fault.status() != 0) {
        error(ex, fault.status(), "injected", "injected failure");
        return;
      }
      GcsObject current = objects.get(bucket + "/" + name);
      if (current == null) {
        error(ex, 404, "notFound", "No such object: " + bucket + "/" + name);
        return;
      }
      if (precondition != null && !matches(current, precondition)) {
        error(ex, 412, "conditionNotMet", "conditionNotMet");
        return;
      }
      objects.remove(bucket + "/" + name);
      drop = fault != null;
    }
    if (drop) {
      return; // applied, but the connection closes without a response: a lost answer
    }
    ex.sendResponseHeaders(204, -1);
  }

  /** Applies a scripted non-write fault; true when the exchange was answered with it. */
  private boolean injected(HttpExchange ex, Operation operation) throws IOException {
    Fault fault = takeFault(operation);
    if (fault == null) {
      return false;
    }
    if (fault.status() != 0) {
      error(ex, fault.status(), "injected", "injected failure");
    }
    return true;
  }

  private Fault takeFault(Operation operation) {
    return faults.take(f -> f.operation() == operation).orElse(null);
  }

  private static boolean matches(GcsObject current, String precondition) {
    long expected = Long.parseLong(precondition);
    return expected == 0 ? current == null : current != null && current.generation() == expected;
  }

  private static ObjectNode metadataOf(GcsObject o) {
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

  private static void error(HttpExchange ex, int status, String reason, String message)
      throws IOException {
    ObjectNode err = JSON.createObjectNode();
    ObjectNode inner = err.putObject("error");
    inner.put("code", status);
    inner.put("message", message);
    inner.putArray("errors").addObject().put("reason", reason).put("message", message);
    json(ex, status, err);
  }

  private static void json(HttpExchange ex, int status, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
  }

  private static Map<String, String> query(String raw) {
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

  private static String segment(String path, int index) {
    return URLDecoder.decode(path.split("/")[index], StandardCharsets.UTF_8);
  }

  private static String md5(byte[] data) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String crc32c(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data);
    return Base64.getEncoder()
        .encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }
}
