package io.sf2loki.testkit.otlp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.sf2loki.testkit.FaultQueue;
import io.sf2loki.testkit.ProtocolFake;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP metrics receiver on loopback, answering as an OpenTelemetry collector does.
 *
 * <p>{@code POST /v1/metrics} with {@code Content-Type: application/x-protobuf} (optionally {@code
 * Content-Encoding: gzip}) is decoded as an {@code ExportMetricsServiceRequest}; every data point
 * is recorded ({@link #points()}) and the answer is {@code 200} with an empty {@code
 * ExportMetricsServiceResponse}. A body that does not decode is answered {@code 400}, another
 * content type {@code 415}, another method {@code 405}. A queued {@link OtlpFault} answers instead
 * of recording. Every answered request is counted by status ({@link #answers()}).
 *
 * <pre>
 * try (FakeOtlpReceiver otlp = FakeOtlpReceiver.start()) {
 *   otlp.inject(OtlpFault.status(503, 2));
 *   // point the exporter at otlp.metricsUrl()
 * }
 * </pre>
 *
 * <p>Thread-safe; see {@link ProtocolFake} for the shape it shares with the other fakes.
 */
public final class FakeOtlpReceiver implements ProtocolFake<OtlpFault> {

  /** The metrics path of OTLP/HTTP. */
  public static final String METRICS_PATH = "/v1/metrics";

  private final HttpServer server;
  private final ExecutorService executor;
  private final FaultQueue<OtlpFault> faults = new FaultQueue<>(OtlpFault::count);
  private final List<ReceivedPoint> points = new CopyOnWriteArrayList<>();
  private final List<Integer> answers = new CopyOnWriteArrayList<>();
  private final List<Map<String, String>> headers = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  private FakeOtlpReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    executor = Executors.newCachedThreadPool(r -> new Thread(r, "fake-otlp"));
    server.setExecutor(executor);
    server.createContext(METRICS_PATH, this::handle);
    server.start();
  }

  /** Starts a receiver on an ephemeral loopback port. */
  public static FakeOtlpReceiver start() throws IOException {
    return new FakeOtlpReceiver();
  }

  @Override
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Where an exporter posts: {@code uri() + /v1/metrics}. */
  public URI metricsUrl() {
    return uri().resolve(METRICS_PATH);
  }

  /** Every data point of every accepted export, in arrival order. */
  public List<ReceivedPoint> points() {
    return List.copyOf(points);
  }

  /** The points of metric {@code name}, in arrival order. */
  public List<ReceivedPoint> points(String name) {
    return points.stream().filter(p -> p.metric().equals(name)).toList();
  }

  /** The names of every metric received so far, sorted. */
  public Set<String> metricNames() {
    Set<String> names = new TreeSet<>();
    points.forEach(p -> names.add(p.metric()));
    return names;
  }

  /** The status of every answered request, in order. */
  public List<Integer> answers() {
    return List.copyOf(answers);
  }

  /** The headers of every request (names lower-case, first value), in order. */
  public List<Map<String, String>> requestHeaders() {
    return List.copyOf(headers);
  }

  @Override
  public void inject(OtlpFault fault) {
    faults.add(fault);
  }

  @Override
  public int pendingFaults() {
    return faults.pendingUses();
  }

  @Override
  public void clearFaults() {
    faults.clear();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      server.stop(0);
      executor.shutdownNow();
    }
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      headers.add(headersOf(ex));
      byte[] body = ex.getRequestBody().readAllBytes();
      if (!ex.getRequestMethod().equals("POST")) {
        answer(ex, 405, "text/plain", "POST only\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      String type = Optional.ofNullable(ex.getRequestHeaders().getFirst("Content-Type")).orElse("");
      if (!type.toLowerCase(Locale.ROOT).startsWith("application/x-protobuf")) {
        answer(
            ex,
            415,
            "text/plain",
            ("unsupported content type " + type + "\n").getBytes(StandardCharsets.UTF_8));
        return;
      }
      Optional<OtlpFault> fault = faults.take(f -> true);
      if (fault.isPresent() && fault.get() instanceof OtlpFault.Status s) {
        s.retryAfter().ifPresent(v -> ex.getResponseHeaders().set("Retry-After", v));
        answer(ex, s.status(), "text/plain", "scripted fault\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      ExportMetricsServiceRequest request;
      try {
        request = ExportMetricsServiceRequest.parseFrom(decoded(ex, body));
      } catch (IOException e) { // not protobuf, or a gzip body that does not inflate
        answer(
            ex,
            400,
            "text/plain",
            ("not an ExportMetricsServiceRequest: " + e.getMessage() + "\n")
                .getBytes(StandardCharsets.UTF_8));
        return;
      }
      points.addAll(MetricsDecoder.points(request));
      answer(
          ex,
          200,
          "application/x-protobuf",
          ExportMetricsServiceResponse.getDefaultInstance().toByteArray());
    }
  }

  private static byte[] decoded(HttpExchange ex, byte[] body) throws IOException {
    String encoding = ex.getRequestHeaders().getFirst("Content-Encoding");
    if (encoding == null || encoding.isBlank() || encoding.equalsIgnoreCase("identity")) {
      return body;
    }
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
      return in.readAllBytes();
    }
  }

  private void answer(HttpExchange ex, int status, String type, byte[] body) throws IOException {
    answers.add(status);
    ex.getResponseHeaders().set("Content-Type", type);
    if (body.length == 0) {
      ex.sendResponseHeaders(status, -1);
      return;
    }
    ex.sendResponseHeaders(status, body.length);
    ex.getResponseBody().write(body);
  }

  private static Map<String, String> headersOf(HttpExchange ex) {
    Map<String, String> out = new TreeMap<>();
    ex.getRequestHeaders()
        .forEach((k, v) -> out.put(k.toLowerCase(Locale.ROOT), v.isEmpty() ? "" : v.get(0)));
    return out;
  }
}
