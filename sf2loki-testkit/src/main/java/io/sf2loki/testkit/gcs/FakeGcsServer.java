package io.sf2loki.testkit.gcs;

import static io.sf2loki.testkit.gcs.GcsWire.error;
import static io.sf2loki.testkit.gcs.GcsWire.query;
import static io.sf2loki.testkit.gcs.GcsWire.segment;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sf2loki.testkit.FaultQueue;
import io.sf2loki.testkit.ProtocolFake;
import io.sf2loki.testkit.gcs.GcsWire.Reply;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;

/**
 * A fake of the subset of the GCS JSON API that google-cloud-storage uses for small objects:
 * multipart upload with {@code ifGenerationMatch}, metadata get, media download (optionally at a
 * generation) and delete. Every check-and-set runs under one lock, so it is linearizable and can
 * serve race tests. {@link GcsFault}s are scripted per operation: an error status before anything
 * happens, a request lost before it is applied, or an answer lost after it was. {@link
 * #ignorePreconditions(boolean)} turns it into a broken endpoint that accepts {@code
 * ifGenerationMatch} and ignores it.
 *
 * <pre>
 * try (FakeGcsServer gcs = FakeGcsServer.start()) {
 *   gcs.inject(GcsFault.dropResponse(Operation.UPLOAD));
 *   // StorageOptions.http().setHost(gcs.endpoint())...
 * }
 * </pre>
 *
 * <p>Thread-safe; see {@link ProtocolFake} for the shape it shares with the other fakes.
 */
public final class FakeGcsServer implements ProtocolFake<GcsFault> {

  /** The operations faults can target. */
  public enum Operation {
    UPLOAD,
    GET_METADATA,
    DOWNLOAD,
    DELETE
  }

  private final HttpServer server;
  private final URI uri;
  private final GcsBuckets buckets = new GcsBuckets();
  private final FaultQueue<GcsFault> faults = new FaultQueue<>(f -> 1);
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicBoolean ignoresPreconditions = new AtomicBoolean();

  private FakeGcsServer(Builder b) throws IOException {
    this.server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), b.port), 0);
    this.uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    server.createContext("/", this::handle);
    server.start();
  }

  /** A builder with the defaults: an ephemeral loopback port. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts on 127.0.0.1 and a free port: the same as {@code builder().start()}. */
  public static FakeGcsServer start() throws IOException {
    return builder().start();
  }

  /** {@code http://127.0.0.1:PORT}. */
  @Override
  public URI uri() {
    return uri;
  }

  /** {@link #uri()} as a string, for {@code StorageOptions.setHost}. */
  public String endpoint() {
    return uri.toString();
  }

  /** Queues {@code fault}; it strikes the next request of its operation not struck by another. */
  @Override
  public void inject(GcsFault fault) {
    faults.add(fault);
  }

  /** The next request of {@code operation} fails with {@code status} before doing anything. */
  public void failNext(Operation operation, int status) {
    inject(GcsFault.status(operation, status));
  }

  /** The next request of {@code operation} is applied but its connection drops without answer. */
  public void dropResponseOfNext(Operation operation) {
    inject(GcsFault.dropResponse(operation));
  }

  /**
   * Mode "ignores conditional headers": while on, uploads and deletes are applied whatever their
   * {@code ifGenerationMatch} says, as some S3/GCS-compatible endpoints do. Requests still record
   * the precondition they sent.
   */
  public void ignorePreconditions(boolean on) {
    ignoresPreconditions.set(on);
  }

  @Override
  public int pendingFaults() {
    return faults.pendingUses();
  }

  @Override
  public void clearFaults() {
    faults.clear();
  }

  /** Requests seen, as {@code OPERATION bucket/name [ifGenerationMatch=N]}. */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  /** The current object, if any. */
  public Optional<GcsObject> object(String bucket, String name) {
    synchronized (buckets) {
      return buckets.get(bucket, name);
    }
  }

  /** Stores an object unconditionally (test setup). */
  public GcsObject put(String bucket, String name, byte[] data) {
    synchronized (buckets) {
      return buckets.put(bucket, name, data, "application/json");
    }
  }

  /** Stops serving at once. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      server.stop(0);
    }
  }

  /** One request, parsed: its operation, its line in {@link #requests()} and what it does. */
  private record Call(Operation operation, String description, Supplier<Reply> apply) {}

  /** A request refused before it names an operation (no route, a malformed upload). */
  private static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    final transient Reply reply;

    Refused(Reply reply) {
      super(null, null, false, false);
      this.reply = reply;
    }
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      Call call;
      try {
        call = parse(ex);
      } catch (Refused r) {
        r.reply.send(ex);
        return;
      }
      requests.add(call.description());
      Reply reply;
      Optional<GcsFault> fault;
      synchronized (buckets) {
        fault = faults.take(f -> f.operation() == call.operation());
        if (fault.isPresent() && fault.get() instanceof GcsFault.DropRequest) {
          return; // closing without a response, nothing applied: a request lost on the way
        }
        reply =
            fault.isPresent() && fault.get() instanceof GcsFault.Status s
                ? error(s.status(), "injected", "injected failure")
                : call.apply().get();
      }
      if (fault.isPresent() && fault.get() instanceof GcsFault.DropResponse) {
        return; // applied, but the connection closes without the answer: a lost response
      }
      reply.send(ex);
    }
  }

  private Call parse(HttpExchange ex) throws IOException, Refused {
    URI requestUri = ex.getRequestURI();
    String path = requestUri.getRawPath();
    Map<String, String> query = query(requestUri.getRawQuery());
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
      return upload(segment(path, 5), query, ex.getRequestHeaders().getFirst("Content-Type"), body);
    }
    if (!path.matches("/(download/)?storage/v1/b/[^/]+/o/.+")) {
      throw new Refused(error(404, "notFound", "no route for " + method + " " + path));
    }
    String bucket = segment(path, path.startsWith("/download/") ? 5 : 4);
    String name =
        URLDecoder.decode(
            path.replaceFirst("^/(download/)?storage/v1/b/[^/]+/o/", ""), StandardCharsets.UTF_8);
    String object = bucket + "/" + name;
    Optional<String> precondition = Optional.ofNullable(query.get("ifGenerationMatch"));
    Optional<String> generation = Optional.ofNullable(query.get("generation"));
    if (method.equals("DELETE")) {
      return new Call(
          Operation.DELETE,
          "DELETE " + object + precondition.map(p -> " ifGenerationMatch=" + p).orElse(""),
          () -> buckets.delete(bucket, name, honoured(precondition)));
    }
    if ("media".equals(query.get("alt"))) {
      return new Call(
          Operation.DOWNLOAD,
          "DOWNLOAD " + object + generation.map(g -> " generation=" + g).orElse(""),
          () -> buckets.download(bucket, name, generation));
    }
    return new Call(
        Operation.GET_METADATA, "GET_METADATA " + object, () -> buckets.metadata(bucket, name));
  }

  private Call upload(String bucket, Map<String, String> query, String contentType, byte[] body)
      throws IOException, Refused {
    String name = query.get("name");
    byte[] data = body;
    String mediaType = "application/octet-stream";
    if (contentType != null && contentType.startsWith("multipart/related")) {
      List<byte[]> parts = Multipart.parts(body, contentType);
      if (parts.size() != 2) {
        throw new Refused(error(400, "invalid", "multipart upload needs metadata and media parts"));
      }
      JsonNode meta = GcsWire.JSON.readTree(parts.get(0));
      name = meta.path("name").asText(name);
      mediaType = meta.path("contentType").asText(mediaType);
      data = parts.get(1);
    }
    if (name == null || name.isEmpty()) {
      throw new Refused(error(400, "required", "object name is required"));
    }
    Optional<String> precondition = Optional.ofNullable(query.get("ifGenerationMatch"));
    String objectName = name;
    byte[] media = data;
    String type = mediaType;
    return new Call(
        Operation.UPLOAD,
        "UPLOAD "
            + bucket
            + "/"
            + name
            + precondition.map(p -> " ifGenerationMatch=" + p).orElse(""),
        () -> buckets.upload(bucket, objectName, media, type, honoured(precondition)));
  }

  private Optional<String> honoured(Optional<String> precondition) {
    return ignoresPreconditions.get() ? Optional.empty() : precondition;
  }

  /** Collects a {@link FakeGcsServer}'s options; {@link #start()} serves with them. */
  public static final class Builder {
    private int port;

    private Builder() {}

    /** The loopback port to listen on; 0 (the default) picks an ephemeral one. */
    public Builder port(int v) {
      if (v < 0 || v > 65_535) {
        throw new IllegalArgumentException("port must be 0..65535: " + v);
      }
      this.port = v;
      return this;
    }

    /**
     * Binds the port and serves. Each call starts another server.
     *
     * @throws IOException when the port cannot be bound
     */
    public FakeGcsServer start() throws IOException {
      return new FakeGcsServer(this);
    }
  }
}
