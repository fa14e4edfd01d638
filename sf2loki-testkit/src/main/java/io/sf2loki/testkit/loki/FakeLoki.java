package io.sf2loki.testkit.loki;

import static io.sf2loki.testkit.loki.LokiExchanges.respond;

import com.sun.net.httpserver.HttpServer;
import io.sf2loki.testkit.FaultQueue;
import io.sf2loki.testkit.ProtocolFake;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A Grafana Loki push receiver on loopback, for tests and the demo simulator.
 *
 * <p>Serves {@code POST /loki/api/v1/push} in both encodings, enforcing Loki's ingestion rules
 * ({@link LokiLimits}) and dropping exact duplicates; records every request's headers and decoded
 * streams; and applies scripted {@link Fault}s and {@link EntryRejection}s. The HTTP surface other
 * tools read: {@code GET /testkit/entries} (JSON lines), {@code GET /testkit/stats}, {@code POST}
 * and {@code DELETE /testkit/faults}, plus {@code GET /ready}.
 *
 * <p>{@link LokiVersion#V3} adds what Loki 3's defaults add ({@code service_name}, {@code
 * detected_level}, {@code __stream_shard__}); {@link #blockIngestion} answers a tenant's pushes
 * with 260 as Loki 3.2 does for a blocked tenant.
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
 * <pre>
 * try (FakeLoki loki = FakeLoki.builder().limits(limits).clock(clock).start()) {
 *   loki.inject(Fault.status(429, "1", 2));
 *   // point the sink at loki.uri()
 * }
 * </pre>
 *
 * <p>Thread-safe; see {@link ProtocolFake} for the shape it shares with the other fakes, including
 * why it sets no {@code sun.net.httpserver.nodelay} (without it, an answer whose body follows its
 * headers, a 400 with Loki's texts or {@code /testkit/*}, can wait ~40 ms on loopback; a 204 goes
 * out in one segment).
 */
public final class FakeLoki implements ProtocolFake<Fault> {

  /** The push path. */
  public static final String PUSH_PATH = "/loki/api/v1/push";

  private final HttpServer server;
  private final ExecutorService executor;
  private final Ingester ingester;
  private final FaultQueue<Fault> faults = new FaultQueue<>(Fault::count);
  private final List<EntryRejection> rejections = new CopyOnWriteArrayList<>();
  private final List<RecordedPush> pushes = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

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

  private FakeLoki(Builder b) throws IOException {
    this.server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), b.port), 64);
    this.ingester =
        new Ingester(
            b.limits,
            b.clock,
            b.recording == PushRecording.FULL,
            b.version,
            b.desiredRate,
            b.keepEntries);
    this.executor = Executors.newCachedThreadPool(r -> new Thread(r, "fake-loki"));
    LokiControl control = new LokiControl(this);
    server.setExecutor(executor);
    PushEndpoint push =
        new PushEndpoint(
            new PushDecoder(b.limits.maxRequestBytes()),
            ingester,
            faults,
            rejections,
            pushes,
            b.onStored);
    server.createContext(PUSH_PATH, push::handle);
    server.createContext("/testkit/entries", control::entries);
    server.createContext("/testkit/stats", control::stats);
    server.createContext("/testkit/faults", control::faults);
    server.createContext("/ready", ex -> respond(ex, 200, "text/plain", "ready\n"));
    server.start();
  }

  /**
   * A builder with the defaults: an ephemeral port, Loki's default limits, the system clock, every
   * push recorded in full.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts a receiver with the {@link #builder() defaults}. */
  public static FakeLoki start() throws IOException {
    return builder().start();
  }

  /**
   * Starts a receiver; the same as {@code builder().port(port).limits(limits).clock(clock)
   * .start()}.
   *
   * @param port the loopback port, 0 for an ephemeral one
   * @param limits the rules to enforce
   * @param clock the server's clock, for the sample-age rules
   */
  public static FakeLoki start(int port, LokiLimits limits, Clock clock) throws IOException {
    return builder().port(port).limits(limits).clock(clock).start();
  }

  /**
   * Starts a receiver; the same as {@code builder().port(port).limits(limits).clock(clock)
   * .recording(recording).start()}.
   *
   * @param port the loopback port, 0 for an ephemeral one
   * @param limits the rules to enforce
   * @param clock the server's clock, for the sample-age rules
   * @param recording how much of each push {@link #pushes()} keeps
   */
  public static FakeLoki start(int port, LokiLimits limits, Clock clock, PushRecording recording)
      throws IOException {
    return builder().port(port).limits(limits).clock(clock).recording(recording).start();
  }

  /** The base URI, e.g. {@code http://127.0.0.1:41234}. */
  @Override
  public URI uri() {
    InetSocketAddress a = server.getAddress();
    return URI.create("http://" + a.getAddress().getHostAddress() + ":" + a.getPort());
  }

  /** The same as {@link #uri()}. */
  public URI baseUri() {
    return uri();
  }

  /** The full push URL. */
  public URI pushUri() {
    return uri().resolve(PUSH_PATH);
  }

  /** Queues a fault; faults strike in the order queued, each its next {@code count} pushes. */
  @Override
  public void inject(Fault fault) {
    faults.add(fault);
  }

  /** The same as {@link #inject(Fault)}. */
  public void addFault(Fault fault) {
    inject(fault);
  }

  /** Pushes still to be hit by a queued fault (a fault's remaining count included). */
  @Override
  public int pendingFaults() {
    return faults.pendingUses();
  }

  /** Adds a standing rule that rejects chosen entries (until {@link #clearFaults()}). */
  public void rejectEntries(EntryRejection rejection) {
    rejections.add(Objects.requireNonNull(rejection));
  }

  /** Removes every queued fault and entry rejection. */
  @Override
  public void clearFaults() {
    faults.clear();
    rejections.clear();
  }

  /**
   * Blocks a tenant's ingestion until {@code until} by the fake's clock, as Loki 3.2's {@code
   * limits_config.block_ingestion_until} does: its pushes whose labels are valid are answered 260
   * with Loki's text ({@code ingestion blocked for user 'acme' until '2026-12-07T05:00:00Z' with
   * status code '260'}) and nothing of them is stored; a validation error takes precedence (400).
   * Single-tenant pushes (no {@code X-Scope-OrgID}) are tenant {@code fake}.
   */
  public void blockIngestion(String tenant, Instant until) {
    ingester.block(Objects.requireNonNull(tenant, "tenant"), Objects.requireNonNull(until));
  }

  /** Lifts a {@link #blockIngestion block} before its end. */
  public void unblockIngestion(String tenant) {
    ingester.unblock(tenant);
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

  /** Forgets stored entries, recorded pushes, faults and ingestion blocks. */
  public void reset() {
    clearFaults();
    pushes.clear();
    ingester.clear();
  }

  /** Stops the server at once; in-flight requests are cut. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      server.stop(0);
      executor.shutdownNow();
    }
  }

  /**
   * Runs a receiver in the foreground: {@code FakeLoki [port]}. Only its HTTP surface is reachable
   * from outside the process, so it records push headers only. Pass {@code
   * -Dsun.net.httpserver.nodelay=true} for loopback latency without Nagle's stalls.
   */
  public static void main(String[] args) throws IOException {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 3100;
    FakeLoki loki = builder().port(port).recording(PushRecording.HEADERS_ONLY).start();
    System.out.println("fake Loki listening on " + loki.uri());
  }

  /** Collects a {@link FakeLoki}'s options; {@link #start()} serves with them. */
  public static final class Builder {
    private int port;
    private LokiLimits limits = LokiLimits.defaults();
    private Clock clock = Clock.systemUTC();
    private PushRecording recording = PushRecording.FULL;
    private Consumer<List<DecodedStream>> onStored = streams -> {};
    private LokiVersion version = LokiVersion.V2_9;
    private long desiredRate = Loki3Rules.DEFAULT_DESIRED_RATE;
    private boolean keepEntries = true;

    private Builder() {}

    /**
     * Whether the fake keeps what it accepts ({@code true} unless set). {@code false} validates,
     * answers and calls {@link #onStored} as usual and keeps each stream's newest timestamp (the
     * out-of-order rule), but no entry: {@link FakeLoki#entries()} stays empty and no duplicate is
     * detected. For benchmarks sharing a JVM with the code they measure: the lines a fake Loki
     * keeps are live data every garbage collection of that JVM copies, which a real Loki's never
     * are.
     */
    public Builder keepEntries(boolean v) {
      this.keepEntries = v;
      return this;
    }

    /**
     * Which Loki's defaults to play ({@link LokiVersion}); {@code V2_9} unless set, so that a test
     * sees the labels and metadata it pushed unless it asks for Loki 3's additions.
     */
    public Builder version(LokiVersion v) {
      this.version = Objects.requireNonNull(v, "version");
      return this;
    }

    /**
     * Loki 3's {@code shard_streams.desired_rate} in bytes per second (1536 KB unless set): a
     * stream pushed faster within one second of the fake's clock is split into {@code
     * __stream_shard__} streams. Only with {@link LokiVersion#V3}.
     */
    public Builder shardDesiredRate(long bytesPerSecond) {
      if (bytesPerSecond <= 0) {
        throw new IllegalArgumentException("desired rate must be positive: " + bytesPerSecond);
      }
      this.desiredRate = bytesPerSecond;
      return this;
    }

    /** The loopback port to listen on; 0 (the default) picks an ephemeral one. */
    public Builder port(int v) {
      if (v < 0 || v > 65_535) {
        throw new IllegalArgumentException("port must be 0..65535: " + v);
      }
      this.port = v;
      return this;
    }

    /** The ingestion rules to enforce; Loki's defaults unless set. */
    public Builder limits(LokiLimits v) {
      this.limits = Objects.requireNonNull(v, "limits");
      return this;
    }

    /** The server's clock, for the sample-age rules; the system clock unless set. */
    public Builder clock(Clock v) {
      this.clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /** How much of each push {@link FakeLoki#pushes()} keeps; {@code FULL} unless set. */
    public Builder recording(PushRecording v) {
      this.recording = Objects.requireNonNull(v, "recording");
      return this;
    }

    /**
     * Called with the decoded streams of every push the fake stored whole, on the request's thread
     * just before it answers 204: when an entry counts as accepted, for latency probes. It must be
     * quick and must not throw. None unless set.
     */
    public Builder onStored(Consumer<List<DecodedStream>> v) {
      this.onStored = Objects.requireNonNull(v, "onStored");
      return this;
    }

    /**
     * Binds the port and serves. Each call starts another receiver.
     *
     * @throws IOException when the port cannot be bound
     */
    public FakeLoki start() throws IOException {
      return new FakeLoki(this);
    }
  }
}
