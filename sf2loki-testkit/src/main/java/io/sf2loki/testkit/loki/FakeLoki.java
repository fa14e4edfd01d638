package io.sf2loki.testkit.loki;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A Grafana Loki push receiver on loopback, for tests and the demo simulator.
 *
 * <p>Serves {@code POST /loki/api/v1/push} in both encodings, enforcing Loki's ingestion rules
 * ({@link LokiLimits}) and dropping exact duplicates; records every request's headers and decoded
 * streams; and applies scripted {@link Fault}s and {@link EntryRejection}s. The HTTP surface other
 * tools read: {@code GET /testkit/entries} (JSON lines), {@code GET /testkit/stats}, {@code POST}
 * and {@code DELETE /testkit/faults}, plus {@code GET /ready}.
 *
 * <p>A push with rejected entries stores its valid ones and is answered 400 with the texts Grafana
 * Loki answers, so a client parses them as it would a real Loki's: per stream, the ingester's
 * out-of-order block ({@code entry with timestamp 2022-10-10 13:25:44 +0000 UTC ignored, reason:
 * 'entry too far behind, ...',} lines, then {@code user 'fake', total ignored: 3 out of 5 for
 * stream: {foo="bar"}}, naming the request's {@code X-Scope-OrgID} or {@code fake}); then the
 * distributor's validation errors, one a line ({@code entry for stream '{a="b"}' has timestamp too
 * old: 2022-10-10T13:25:44Z, oldest acceptable timestamp is: ...}, {@code Max entry size '...'
 * bytes exceeded for stream ...}). See {@code RejectionReport} for the exact formats.
 *
 * <p>Thread-safe. Start with {@link #start()}, stop with {@link #close()}.
 *
 * <p><b>Latency on loopback.</b> The JDK server leaves Nagle's algorithm on unless the JVM runs
 * with {@code -Dsun.net.httpserver.nodelay=true}, which it reads once, when its first server
 * starts; there is no per-server option. This fake sets no JVM-wide property, so without the flag
 * an answer whose body follows its headers (a 400 with Loki's texts, {@code /testkit/*}) can wait
 * ~40 ms for the client's delayed ACK; a 204 goes out in one segment. A JVM that times pushes
 * passes the flag itself: the build's surefire and the benchmark harness do.
 */
public final class FakeLoki implements AutoCloseable {

  /** The push path. */
  public static final String PUSH_PATH = "/loki/api/v1/push";

  static final ObjectMapper JSON = new ObjectMapper();

  private static final int MAX_PRESIZED_BODY = 64 << 20;

  private final HttpServer server;
  private final ExecutorService executor;
  private final Ingester ingester;
  private final PushDecoder decoder;
  private final Deque<Fault> faults = new ArrayDeque<>();
  private final List<EntryRejection> rejections = new CopyOnWriteArrayList<>();
  private final List<RecordedPush> pushes = new CopyOnWriteArrayList<>();

  /** How much of each push {@link #pushes()} keeps. */
  public enum PushRecording {
    /** Headers, size, status and every decoded entry: for tests that inspect single pushes. */
    FULL,
    /**
     * Headers, size and status only ({@link RecordedPush#streams()} empty): for a long-running or
     * out-of-process fake, where keeping every request's entries a second time would only cost
     * memory.
     */
    HEADERS_ONLY
  }

  private FakeLoki(HttpServer server, LokiLimits limits, Clock clock, PushRecording recording) {
    this.server = server;
    this.ingester = new Ingester(limits, clock, recording == PushRecording.FULL);
    this.decoder = new PushDecoder(limits.maxRequestBytes());
    this.executor = Executors.newCachedThreadPool(r -> new Thread(r, "fake-loki"));
    server.setExecutor(executor);
    server.createContext(PUSH_PATH, this::handlePush);
    server.createContext("/testkit/entries", this::handleEntries);
    server.createContext("/testkit/stats", this::handleStats);
    server.createContext("/testkit/faults", this::handleFaults);
    server.createContext("/ready", ex -> respond(ex, 200, "text/plain", "ready\n"));
  }

  /** Starts a receiver with Loki's default limits on an ephemeral loopback port. */
  public static FakeLoki start() throws IOException {
    return start(0, LokiLimits.defaults(), Clock.systemUTC());
  }

  /**
   * Starts a receiver.
   *
   * @param port the loopback port, 0 for an ephemeral one
   * @param limits the rules to enforce
   * @param clock the server's clock, for the sample-age rules
   */
  public static FakeLoki start(int port, LokiLimits limits, Clock clock) throws IOException {
    return start(port, limits, clock, PushRecording.FULL);
  }

  /**
   * Starts a receiver.
   *
   * @param port the loopback port, 0 for an ephemeral one
   * @param limits the rules to enforce
   * @param clock the server's clock, for the sample-age rules
   * @param recording how much of each push {@link #pushes()} keeps
   */
  public static FakeLoki start(int port, LokiLimits limits, Clock clock, PushRecording recording)
      throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
    FakeLoki loki = new FakeLoki(server, limits, clock, recording);
    server.start();
    return loki;
  }

  /** The base URL, e.g. {@code http://127.0.0.1:41234}. */
  public URI baseUri() {
    InetSocketAddress a = server.getAddress();
    return URI.create("http://" + a.getAddress().getHostAddress() + ":" + a.getPort());
  }

  /** The full push URL. */
  public URI pushUri() {
    return baseUri().resolve(PUSH_PATH);
  }

  /** Queues a fault; faults apply in the order queued, each to its next {@code count} pushes. */
  public void addFault(Fault fault) {
    synchronized (faults) {
      faults.addLast(fault);
    }
  }

  /** Pushes still to be hit by a queued fault (a fault's remaining count included). */
  public int pendingFaults() {
    synchronized (faults) {
      return faults.stream().mapToInt(Fault::count).sum();
    }
  }

  /** Adds a standing rule that rejects chosen entries (until {@link #clearFaults()}). */
  public void rejectEntries(EntryRejection rejection) {
    rejections.add(rejection);
  }

  /** Removes every queued fault and entry rejection. */
  public void clearFaults() {
    synchronized (faults) {
      faults.clear();
    }
    rejections.clear();
  }

  /** Every stored entry, in arrival order. */
  public List<AcceptedEntry> entries() {
    return ingester.accepted();
  }

  /** The stored lines, in arrival order. */
  public List<String> lines() {
    return entries().stream().map(AcceptedEntry::line).toList();
  }

  /** Counters. */
  public FakeLokiStats stats() {
    return ingester.stats();
  }

  /** Every push request received, in arrival order. */
  public List<RecordedPush> pushes() {
    return List.copyOf(pushes);
  }

  /** Forgets stored entries, recorded pushes and faults. */
  public void reset() {
    clearFaults();
    pushes.clear();
    ingester.clear();
  }

  private Optional<Fault> nextFault() {
    synchronized (faults) {
      Fault f = faults.pollFirst();
      if (f == null) {
        return Optional.empty();
      }
      if (f.count() > 1) {
        faults.addFirst(f.decrement());
      }
      return Optional.of(f);
    }
  }

  private void handlePush(HttpExchange ex) throws IOException {
    try (ex) {
      if (!"POST".equals(ex.getRequestMethod())) {
        respond(ex, 405, "text/plain", "use POST\n");
        return;
      }
      Map<String, String> headers = headers(ex);
      Optional<Fault> fault = nextFault();
      if (fault.isPresent() && fault.get().reset()) {
        InputStream in = ex.getRequestBody();
        in.readNBytes(Math.max(1, in.available() / 2));
        pushes.add(new RecordedPush(headers, 0, List.of(), 0));
        return; // closing before any response header drops the connection
      }
      byte[] body = readBody(ex.getRequestBody(), headers.get("content-length"));
      if (fault.isPresent()) {
        sleep(fault.get().latency().toMillis());
      }
      if (fault.isPresent() && fault.get().status() != 0) {
        fault.get().retryAfter().ifPresent(v -> ex.getResponseHeaders().set("Retry-After", v));
        pushes.add(new RecordedPush(headers, body.length, List.of(), fault.get().status()));
        respond(ex, fault.get().status(), "text/plain", "injected fault\n");
        return;
      }
      process(ex, headers, body);
    }
  }

  private void process(HttpExchange ex, Map<String, String> headers, byte[] body)
      throws IOException {
    List<DecodedStream> streams;
    try {
      streams = decoder.decode(headers.get("content-type"), headers.get("content-encoding"), body);
    } catch (PushDecoder.BodyTooLargeException e) {
      pushes.add(new RecordedPush(headers, body.length, List.of(), 413));
      respond(ex, 413, "text/plain", e.getMessage() + "\n");
      return;
    } catch (PushDecoder.DecodeException e) {
      pushes.add(new RecordedPush(headers, body.length, List.of(), 400));
      respond(ex, 400, "text/plain", e.getMessage() + "\n");
      return;
    }
    String tenant = headers.get("x-scope-orgid");
    Ingester.Outcome outcome =
        ingester.ingest(
            streams,
            List.copyOf(rejections),
            tenant == null || tenant.isEmpty() ? RejectionReport.SINGLE_TENANT : tenant);
    pushes.add(new RecordedPush(headers, body.length, outcome.streams(), outcome.status()));
    respond(ex, outcome.status(), "text/plain", outcome.message());
  }

  private void handleEntries(HttpExchange ex) throws IOException {
    try (ex) {
      StringBuilder out = new StringBuilder();
      for (AcceptedEntry e : entries()) {
        ObjectNode node = JSON.createObjectNode();
        node.set("labels", JSON.valueToTree(new java.util.TreeMap<>(e.labels())));
        node.put("timestamp", Long.toString(e.timestampNanos()));
        node.put("line", e.line());
        node.set("structured_metadata", JSON.valueToTree(new java.util.TreeMap<>(e.metadata())));
        out.append(JSON.writeValueAsString(node)).append('\n');
      }
      respond(ex, 200, "application/x-ndjson", out.toString());
    }
  }

  private void handleStats(HttpExchange ex) throws IOException {
    try (ex) {
      FakeLokiStats s = stats();
      ObjectNode node = JSON.createObjectNode();
      node.put("streams", s.streams());
      node.put("entries", s.entries());
      node.put("bytes", s.bytes());
      node.put("duplicates", s.duplicates());
      node.put("rejected", s.rejected());
      respond(ex, 200, "application/json", JSON.writeValueAsString(node));
    }
  }

  private void handleFaults(HttpExchange ex) throws IOException {
    try (ex) {
      switch (ex.getRequestMethod()) {
        case "DELETE" -> {
          clearFaults();
          respond(ex, 204, "text/plain", "");
        }
        case "POST" -> {
          try {
            JsonNode node = JSON.readTree(ex.getRequestBody());
            if (node != null && node.hasNonNull("reject_line_contains")) {
              rejectEntries(
                  new EntryRejection(
                      node.get("reject_line_contains").asText(), node.path("status").asInt(400)));
            } else {
              addFault(Fault.fromJson(node == null ? JSON.createObjectNode() : node));
            }
            respond(ex, 204, "text/plain", "");
          } catch (IOException | IllegalArgumentException e) {
            respond(ex, 400, "text/plain", "bad fault: " + e.getMessage() + "\n");
          }
        }
        default -> respond(ex, 405, "text/plain", "use POST or DELETE\n");
      }
    }
  }

  /** The body in one exactly sized array when the length is announced (no chunk list). */
  private static byte[] readBody(InputStream in, String contentLength) throws IOException {
    int n = -1;
    try {
      n = contentLength == null ? -1 : Integer.parseInt(contentLength.trim());
    } catch (NumberFormatException e) {
      // fall through to reading until the end
    }
    if (n < 0 || n > MAX_PRESIZED_BODY) {
      return in.readAllBytes();
    }
    byte[] body = new byte[n];
    int read = in.readNBytes(body, 0, n);
    return read == n ? body : java.util.Arrays.copyOf(body, read);
  }

  private static Map<String, String> headers(HttpExchange ex) {
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

  private static void respond(HttpExchange ex, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    if (status == 204 || bytes.length == 0) {
      ex.sendResponseHeaders(status, -1);
      return;
    }
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
  }

  private static void sleep(long millis) {
    if (millis <= 0) {
      return;
    }
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the server at once; in-flight requests are cut. Idempotent. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /**
   * Runs a receiver in the foreground: {@code FakeLoki [port]}. Only its HTTP surface is reachable
   * from outside the process, so it records push headers only.
   */
  public static void main(String[] args) throws IOException {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 3100;
    FakeLoki loki =
        start(port, LokiLimits.defaults(), Clock.systemUTC(), PushRecording.HEADERS_ONLY);
    System.out.println("fake Loki listening on " + loki.baseUri());
  }
}
