package io.sf2loki.testkit.otlp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.sf2loki.testkit.FaultQueue;
import io.sf2loki.testkit.ProtocolFake;
import io.sf2loki.testkit.loki.LokiLimits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * An OTLP/HTTP logs receiver on loopback, answering as an OpenTelemetry collector or Loki 3's OTLP
 * endpoint does.
 *
 * <p>{@code POST /v1/logs} and {@code POST /otlp/v1/logs} take an {@code ExportLogsServiceRequest}
 * as {@code application/x-protobuf} or {@code application/json} (the OTLP/HTTP JSON mapping),
 * optionally compressed ({@code Content-Encoding} gzip, zstd or lz4), decoded with the official
 * {@code opentelemetry-proto} classes. Every record is kept ({@link #records()}) with the labels
 * and structured metadata Loki would give it under the configured {@link LokiOtlpRules}. The answer
 * is {@code 200} with an {@code ExportLogsServiceResponse} in the request's encoding: empty, or,
 * when the {@link Builder#rejecting rejection rule} matched records, a {@code partial_success} with
 * their number and the rule's message (those records are not kept). A body that does not decode is
 * answered {@code 400} with a {@code google.rpc.Status}, another content type {@code 415}, another
 * method {@code 405}. A queued {@link OtlpFault} answers instead of keeping ({@code 429}/{@code
 * 503} with {@code Retry-After}, {@code 400}, ...). Every answered request is counted by status.
 * {@code GET /testkit/stats} and {@code /testkit/entries} show what it kept, in the fake Loki's
 * shape.
 *
 * <p>Asked to ({@link Builder#lokiWindows}), it plays a Loki's time windows as Loki's {@code
 * /otlp/v1/logs} does ({@link LokiTimeWindows}): a record older than {@code
 * reject_old_samples_max_age}, further ahead than {@code creation_grace_period} or more than the
 * out-of-order window behind the newest record of its Loki stream is refused ({@link #refused()}),
 * the others stored, and a refusal Loki reports is answered {@code 400} with Loki's text as the
 * message of a {@code google.rpc.Status} sent as {@code application/octet-stream}, as Loki's OTLP
 * handler does; a full success is {@code 204} without a body, as Loki answers it.
 *
 * <pre>
 * try (FakeOtlpLogs otlp = FakeOtlpLogs.builder()
 *     .rules(LokiOtlpRules.promoting(Set.of("event_type", "source"))).start()) {
 *   otlp.inject(OtlpFault.retryAfter(503, 1, 2));
 *   // point the sink at otlp.uri()
 * }
 * </pre>
 *
 * <p>Thread-safe; see {@link ProtocolFake} for the shape it shares with the other fakes.
 */
public final class FakeOtlpLogs implements ProtocolFake<OtlpFault> {

  /** The logs path of OTLP/HTTP. */
  public static final String LOGS_PATH = "/v1/logs";

  /** Loki's OTLP logs path. */
  public static final String LOKI_LOGS_PATH = "/otlp/v1/logs";

  private final HttpServer server;
  private final ExecutorService executor;
  private final LokiOtlpRules rules;
  private final Predicate<ReceivedLogRecord> reject;
  private final String rejectMessage;
  private final LokiTimeWindows windows; // null unless playing a Loki's time windows
  private final BodyDecoding decoding;
  private final List<Refusal> refused = new CopyOnWriteArrayList<>();
  private final FaultQueue<OtlpFault> faults = new FaultQueue<>(OtlpFault::count);
  private final List<ReceivedLogRecord> records = new CopyOnWriteArrayList<>();
  private final List<Integer> answers = new CopyOnWriteArrayList<>();
  private final List<Integer> exportSizes = new CopyOnWriteArrayList<>();
  private final List<Map<String, String>> headers = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  private FakeOtlpLogs(Builder b) throws IOException {
    rules = b.rules;
    reject = b.reject;
    rejectMessage = b.rejectMessage;
    windows = b.windowLimits == null ? null : new LokiTimeWindows(b.windowLimits, b.windowClock);
    decoding = new BodyDecoding(b.gzipOnly);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), b.port), 16);
    executor = Executors.newCachedThreadPool(r -> new Thread(r, "fake-otlp-logs"));
    server.setExecutor(executor);
    server.createContext(LOGS_PATH, this::handle);
    server.createContext(LOKI_LOGS_PATH, this::handle);
    LogsInspection inspection = new LogsInspection(this::records);
    server.createContext(LogsInspection.STATS, inspection::stats);
    server.createContext(LogsInspection.ENTRIES, inspection::entries);
    server.start();
  }

  /** Options; {@link Builder#start()} serves. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts a receiver with Loki's default rules that rejects nothing. */
  public static FakeOtlpLogs start() throws IOException {
    return builder().start();
  }

  /** The receiver's options. */
  public static final class Builder {
    private LokiOtlpRules rules = LokiOtlpRules.defaults();
    private Predicate<ReceivedLogRecord> reject = r -> false;
    private String rejectMessage = "";
    private LokiLimits windowLimits;
    private Clock windowClock;
    private int port;
    private boolean gzipOnly;

    private Builder() {}

    /**
     * Decodes gzip only, as a Loki before 3.6 does: a zstd or lz4 body is not decoded but parsed as
     * it came, so it fails to parse and is answered 400 with the parser's message (Loki's {@code
     * proto: ...}), or, when the compressed bytes happen to parse, accepted with nothing in it. By
     * default the receiver decodes gzip, zstd and lz4, as Loki 3.6 and the Collector do.
     */
    public Builder gzipOnly() {
      this.gzipOnly = true;
      return this;
    }

    /** The loopback port to bind; 0 (the default) picks a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** How records map to Loki labels and metadata (default: Loki's defaults). */
    public Builder rules(LokiOtlpRules rules) {
      this.rules = Objects.requireNonNull(rules, "rules");
      return this;
    }

    /**
     * Rejects the records {@code rule} matches in every export, answering a partial success with
     * their number and {@code message}, as a backend refusing some records does (which ones, OTLP
     * does not say).
     */
    public Builder rejecting(Predicate<ReceivedLogRecord> rule, String message) {
      this.reject = Objects.requireNonNull(rule, "rule");
      this.rejectMessage = Objects.requireNonNull(message, "message");
      return this;
    }

    /**
     * Plays the time windows of a Loki with {@code limits} ({@code reject_old_samples_max_age},
     * {@code creation_grace_period}, the out-of-order window) at {@code clock}'s time, answering as
     * Loki's OTLP endpoint does. Not together with {@link #rejecting}: a Loki never answers a
     * partial success.
     */
    public Builder lokiWindows(LokiLimits limits, Clock clock) {
      this.windowLimits = Objects.requireNonNull(limits, "limits");
      this.windowClock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Binds an ephemeral loopback port and serves. */
    public FakeOtlpLogs start() throws IOException {
      if (windowLimits != null && !rejectMessage.isEmpty()) {
        throw new IllegalStateException("lokiWindows and rejecting do not go together");
      }
      return new FakeOtlpLogs(this);
    }
  }

  @Override
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Where an exporter posts: {@code uri() + /v1/logs}. */
  public URI logsUrl() {
    return uri().resolve(LOGS_PATH);
  }

  /** Every kept record, in arrival order. */
  public List<ReceivedLogRecord> records() {
    return List.copyOf(records);
  }

  /**
   * A record a Loki's time windows refused ({@link Builder#lokiWindows}).
   *
   * @param record the record
   * @param reason {@code greater_than_max_sample_age}, {@code too_far_in_future} or {@code
   *     too_far_behind}, Loki's discard reasons
   */
  public record Refusal(ReceivedLogRecord record, String reason) {}

  /**
   * Every record the time windows refused, in arrival order, whether the answer reported it or (as
   * Loki does for a stream other than the request's last) not.
   */
  public List<Refusal> refused() {
    return List.copyOf(refused);
  }

  /** The status of every answered request, in order. */
  public List<Integer> answers() {
    return List.copyOf(answers);
  }

  /** The number of records in each decoded export, in order (faulted ones included). */
  public List<Integer> exportSizes() {
    return List.copyOf(exportSizes);
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
      String lower = type.toLowerCase(Locale.ROOT);
      boolean json = lower.startsWith("application/json");
      if (!json && !lower.startsWith("application/x-protobuf")) {
        answer(
            ex,
            415,
            "text/plain",
            ("unsupported content type " + type + "\n").getBytes(StandardCharsets.UTF_8));
        return;
      }
      ExportLogsServiceRequest request;
      byte[] plain;
      try {
        plain = decoding.decode(ex.getRequestHeaders().getFirst("Content-Encoding"), body);
      } catch (BodyDecoding.UnsupportedEncodingException e) {
        status(ex, json, 400, e.getMessage());
        return;
      } catch (IOException e) { // a compressed body that does not decompress
        status(ex, json, 400, "cannot decompress the body: " + e.getMessage());
        return;
      }
      try {
        request = json ? LogsDecoder.json(plain) : LogsDecoder.protobuf(plain);
      } catch (IOException e) { // not the encoding it says, or a body left compressed
        // Loki's parser (gogo protobuf) says "proto: ..." and answers 400
        status(ex, json, 400, "proto: not an ExportLogsServiceRequest: " + e.getMessage());
        return;
      }
      exportSizes.add(LogsDecoder.count(request));
      Optional<OtlpFault> fault = faults.take(f -> true);
      if (fault.isPresent() && fault.get() instanceof OtlpFault.Status s) {
        s.retryAfter().ifPresent(v -> ex.getResponseHeaders().set("Retry-After", v));
        status(ex, json, s.status(), "scripted fault");
        return;
      }
      if (windows != null) {
        lokiAnswer(ex, LogsDecoder.records(request, rules));
        return;
      }
      List<ReceivedLogRecord> kept = new ArrayList<>();
      long rejected = 0;
      for (ReceivedLogRecord r : LogsDecoder.records(request, rules)) {
        if (reject.test(r)) {
          rejected++;
        } else {
          kept.add(r);
        }
      }
      records.addAll(kept);
      success(ex, json, rejected);
    }
  }

  /** Stores what Loki's windows let through and answers as Loki's OTLP handler does. */
  private void lokiAnswer(HttpExchange ex, List<ReceivedLogRecord> received) throws IOException {
    String tenant =
        Optional.ofNullable(ex.getRequestHeaders().getFirst("X-Scope-OrgID")).orElse("fake");
    LokiTimeWindows.Outcome outcome = windows.ingest(received, tenant);
    records.addAll(outcome.stored());
    refused.addAll(outcome.refused());
    if (outcome.message().isEmpty()) {
      answer(ex, 204, "text/plain", new byte[0]);
      return;
    }
    // Loki's OTLPError: a Status with the code left out (0) and the push API's text as message.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] text = outcome.message().getBytes(StandardCharsets.UTF_8);
    out.write(2 << 3 | 2); // field 2 (message), length-delimited
    writeVarint(out, text.length);
    out.write(text);
    answer(ex, 400, "application/octet-stream", out.toByteArray());
  }

  private void success(HttpExchange ex, boolean json, long rejected) throws IOException {
    if (json) {
      String partial =
          rejected == 0
              ? "{}"
              : "{\"partialSuccess\":{\"rejectedLogRecords\":\""
                  + rejected
                  + "\",\"errorMessage\":"
                  + jsonString(rejectMessage)
                  + "}}";
      answer(ex, 200, "application/json", partial.getBytes(StandardCharsets.UTF_8));
      return;
    }
    ExportLogsServiceResponse.Builder response = ExportLogsServiceResponse.newBuilder();
    if (rejected > 0) {
      response.setPartialSuccess(
          ExportLogsPartialSuccess.newBuilder()
              .setRejectedLogRecords(rejected)
              .setErrorMessage(rejectMessage));
    }
    answer(ex, 200, "application/x-protobuf", response.build().toByteArray());
  }

  /** A failure answered with a {@code google.rpc.Status}, as OTLP/HTTP asks. */
  private void status(HttpExchange ex, boolean json, int status, String message)
      throws IOException {
    int code = status == 400 ? 3 : status == 429 ? 8 : 14; // INVALID_ARGUMENT, EXHAUSTED, UNAVAIL.
    if (json) {
      String body = "{\"code\":" + code + ",\"message\":" + jsonString(message) + "}";
      answer(ex, status, "application/json", body.getBytes(StandardCharsets.UTF_8));
      return;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(1 << 3); // field 1 (code), varint
    out.write(code);
    byte[] text = message.getBytes(StandardCharsets.UTF_8);
    out.write(2 << 3 | 2); // field 2 (message), length-delimited
    writeVarint(out, text.length);
    out.write(text);
    answer(ex, status, "application/x-protobuf", out.toByteArray());
  }

  private static void writeVarint(ByteArrayOutputStream out, int v) {
    while ((v & ~0x7F) != 0) {
      out.write(v & 0x7F | 0x80);
      v >>>= 7;
    }
    out.write(v);
  }

  private static String jsonString(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
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
