package io.sf2loki.testkit.salesforce;

import com.sun.net.httpserver.HttpServer;
import io.sf2loki.testkit.ProtocolFake;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fake Salesforce org on an ephemeral local port. See the package documentation for what it
 * serves. Thread-safe; {@link #close()} stops the server and any activity generator. See {@link
 * ProtocolFake} for the shape it shares with the other fakes.
 *
 * <pre>
 * try (FakeSalesforce sf = FakeSalesforce.builder().clientId("cid").username("u@x")
 *     .jwtPublicKey(keys.getPublic()).build()) {
 *   sf.addLogFile(...);
 *   sf.inject(Fault.requestLimitExceeded(Fault.Route.QUERY));
 *   // point salesforce.login_url at sf.uri()
 * }
 * </pre>
 */
public final class FakeSalesforce implements ProtocolFake<Fault> {

  private final OrgSettings settings;
  private final HttpServer server;
  private final ExecutorService executor;
  private final URI baseUrl;
  private final Faults faults = new Faults();
  private final Map<String, LogFileSpec> files = new ConcurrentHashMap<>();
  private final Map<String, Long> lengths = new ConcurrentHashMap<>();
  private final Set<String> tokens = ConcurrentHashMap.newKeySet();
  private final List<String> sobjects =
      new CopyOnWriteArrayList<>(List.of("EventLogFile", "LoginEventStream", "ApiEventStream"));
  private final List<String> queries = new CopyOnWriteArrayList<>();
  private final Stats stats = new Stats();
  private final ApiUsage apiUsage = new ApiUsage();
  private final AtomicLong tokenCounter = new AtomicLong();
  private final AtomicLong idCounter = new AtomicLong();
  private final Activity activity = new Activity(this);
  private final EventObjects eventObjects = new EventObjects(this);
  // a fixed seed: a failing run's visibility lags replay exactly
  private final EventLogObjects eventLogObjects = new EventLogObjects(this, 31);
  private final ApexLogs apexLogs = new ApexLogs(this);
  private final LogFileSchemas schemas = new LogFileSchemas();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Duration clockOffset = Duration.ZERO;
  private volatile boolean eventLogFileAccess = true;

  private FakeSalesforce(OrgSettings settings) throws IOException {
    this.settings = settings;
    this.server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), settings.port()), 0);
    this.executor = Executors.newCachedThreadPool();
    server.setExecutor(executor);
    this.baseUrl = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    server.createContext("/", new Router(this, new Exchanges()));
    server.start();
  }

  /** A builder with defaults: org {@code 00D000000000001AAA}, API 60.0, batch size 2000. */
  public static Builder builder() {
    return new Builder();
  }

  /** {@code http://127.0.0.1:<port>}: the login URL, JWT audience and instance URL. */
  @Override
  public URI uri() {
    return baseUrl;
  }

  /** The same as {@link #uri()}. */
  public URI baseUrl() {
    return baseUrl;
  }

  /** Schedules a fault; it strikes the next request it applies to, in the order queued. */
  @Override
  public void inject(Fault fault) {
    faults.add(fault);
  }

  /** Requests still to be hit by a queued fault (a fault's remaining uses included). */
  @Override
  public int pendingFaults() {
    return faults.pendingCount();
  }

  @Override
  public void clearFaults() {
    faults.clear();
  }

  /** Adds (or regenerates, same id) a file; visible once its CreatedDate has passed. */
  public void addLogFile(LogFileSpec spec) {
    files.put(spec.id(), spec);
  }

  /**
   * Adds a file with a generated id and a seed derived from it and the builder's {@link
   * Builder#seed(long) seed}.
   */
  public LogFileSpec addLogFile(
      String eventType, String interval, Instant logDate, Instant createdDate, long rows) {
    long n = idCounter.incrementAndGet();
    String id = String.format("0ATD0000%07dAAA", n);
    long seed = n + settings.seed() * 1_000_003L;
    LogFileSpec spec =
        new LogFileSpec(id, eventType, interval, logDate, createdDate, 1, rows, seed, true);
    addLogFile(spec);
    return spec;
  }

  /** The current record of file {@code id}. */
  public Optional<LogFileSpec> logFile(String id) {
    return Optional.ofNullable(files.get(id));
  }

  /** Every file visible now on the fake's clock, by (CreatedDate, Id). */
  public List<LogFileSpec> logFiles() {
    return visibleFiles();
  }

  /** The generator of {@code spec}'s body, to recompute expected rows. */
  public LogFileCsv csv(LogFileSpec spec) {
    return new LogFileCsv(spec, settings.orgId(), schemaOf(spec));
  }

  /**
   * From {@code from} on (by CreatedDate), files of {@code eventType} have {@code schema}'s
   * columns: their CSV header and the {@code LogFileFieldNames} / {@code LogFileFieldTypes} they
   * are listed with, as after a Salesforce release.
   */
  public void changeSchema(String eventType, Instant from, LogFileSchema schema) {
    schemas.change(eventType, from, schema);
  }

  /** The columns of {@code spec}'s body. */
  public LogFileSchema schemaOf(LogFileSpec spec) {
    return schemas.of(spec);
  }

  /** Adds objects to the global describe ({@code sobjects}), e.g. platform or change events. */
  public void addSObjects(String... names) {
    sobjects.addAll(List.of(names));
  }

  List<String> sobjects() {
    return List.copyOf(sobjects);
  }

  /**
   * Takes View Event Log Files away from the user: describing EventLogFile answers 403, as for a
   * user without the permission.
   */
  public void revokeEventLogFileAccess() {
    eventLogFileAccess = false;
  }

  boolean eventLogFileAccess() {
    return eventLogFileAccess;
  }

  /** Makes every issued token invalid, as an org session timeout does. */
  public void expireAllTokens() {
    tokens.clear();
  }

  /**
   * Shifts the fake's notion of now (file visibility, JWT {@code exp} checks, activity) by {@code
   * offset}. The {@code Date} header always carries the machine's real time (the JDK server sets
   * it), so a skew test moves the client's clock instead.
   */
  public void serverClockOffset(Duration offset) {
    this.clockOffset = Objects.requireNonNull(offset);
  }

  /**
   * Starts producing one new Hourly file per event type every {@code period}, with {@code rows}
   * rows, created "now" on the fake's clock and covering the previous full hour (so every row lies
   * in the past, as in a real org), until {@link #close()}.
   */
  public void startActivity(Duration period, List<String> eventTypes, long rows) {
    activity.start(period, eventTypes, rows);
  }

  /** The queryable event objects (eventlog_objects): records, ties, late rows, big objects. */
  public EventObjects eventObjects() {
    return eventObjects;
  }

  /**
   * The Event Log Objects ({@code *EventLog}): rows with a 0–45 minute visibility lag, ties on one
   * millisecond, and the documented query rules enforced (refusals counted).
   */
  public EventLogObjects eventLogObjects() {
    return eventLogObjects;
  }

  /** The Tooling API's debug logs and their bodies. */
  public ApexLogs apexLogs() {
    return apexLogs;
  }

  /** The org's daily API allocation, the usage header and {@code /limits}. */
  public ApiUsage apiUsage() {
    return apiUsage;
  }

  /** What the fake has produced and served so far. */
  public Stats stats() {
    return stats;
  }

  /** Every SOQL text received, decoded, in arrival order. */
  public List<String> queries() {
    return List.copyOf(queries);
  }

  /** Tokens minted so far (successful token requests; {@link Stats#requests} counts them all). */
  public long tokensIssued() {
    return tokenCounter.get();
  }

  /**
   * Stops serving. The JDK server's stop waits for its dispatcher's one-second select tick, so it
   * runs on a background thread and the caller does not wait for it. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    activity.stop();
    Thread stopper =
        new Thread(
            () -> {
              server.stop(0);
              executor.shutdownNow();
            },
            "fake-salesforce-stop");
    stopper.setDaemon(true);
    stopper.start();
  }

  // ---- package-private state used by the handlers ----

  Instant serverNow() {
    return settings.clock().instant().plus(clockOffset);
  }

  Faults faults() {
    return faults;
  }

  OrgSettings settings() {
    return settings;
  }

  String audience() {
    return settings.audience().orElse(baseUrl.toString());
  }

  String issueToken() {
    String token = settings.orgId().substring(0, 15) + "!AQ" + tokenCounter.incrementAndGet() + "x";
    tokens.add(token);
    return token;
  }

  void recordTokenFailure() {
    stats.tokenFailures.incrementAndGet();
  }

  /** True while {@code token} was issued and not expired (the fake Pub/Sub checks tokens here). */
  public boolean isValidToken(String token) {
    return tokens.contains(token);
  }

  void recordQuery(String soql) {
    queries.add(soql);
  }

  /** Files whose CreatedDate has passed on the fake's clock, by (CreatedDate, Id). */
  List<LogFileSpec> visibleFiles() {
    Instant now = serverNow();
    List<LogFileSpec> out = new ArrayList<>();
    for (LogFileSpec f : files.values()) {
      if (!f.createdDate().isAfter(now)) {
        out.add(f);
      }
    }
    out.sort(Comparator.comparing(LogFileSpec::createdDate).thenComparing(LogFileSpec::id));
    return out;
  }

  /** LogFileLength as listed (exact for small files, estimated for huge ones). */
  long byteLength(LogFileSpec f) {
    return lengths.computeIfAbsent(
        f.id() + "@" + f.createdDate() + "@" + schemaOf(f).hashCode(), k -> csv(f).listedLength());
  }

  long nextId() {
    return idCounter.incrementAndGet();
  }

  /** Collects a {@link FakeSalesforce}'s options; {@link #start()} serves with them. */
  public static final class Builder {
    private String clientId = "test-client-id";
    private String clientSecret;
    private String username;
    private PublicKey jwtPublicKey;
    private String audience;
    private String orgId = "00D000000000001AAA";
    private String apiVersion = "60.0";
    private int queryBatchSize = 2000;
    private Clock clock = Clock.systemUTC();
    private int port;
    private long seed;
    private Set<String> scopes = Set.of("api", "openid", "refresh_token");

    private Builder() {}

    /**
     * The connected app's OAuth scopes (default {@code api openid refresh_token}): listed in every
     * token response's {@code scope}, and userinfo answers 403 {@code insufficient_scope} to tokens
     * of an app without {@code openid}, as Salesforce's OpenID Connect endpoint does.
     */
    public Builder scopes(String... v) {
      this.scopes = Set.of(v);
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

    /** Varies the generated file contents; the same seed regenerates the same rows. */
    public Builder seed(long v) {
      this.seed = v;
      return this;
    }

    public Builder clientId(String v) {
      this.clientId = Objects.requireNonNull(v);
      return this;
    }

    public Builder clientSecret(String v) {
      this.clientSecret = v;
      return this;
    }

    public Builder username(String v) {
      this.username = v;
      return this;
    }

    /** The public key of the connected app's certificate; JWT assertions must verify with it. */
    public Builder jwtPublicKey(PublicKey v) {
      this.jwtPublicKey = v;
      return this;
    }

    /** The expected JWT {@code aud}; defaults to {@link FakeSalesforce#uri()}. */
    public Builder audience(String v) {
      this.audience = v;
      return this;
    }

    public Builder orgId(String v) {
      this.orgId = Objects.requireNonNull(v);
      return this;
    }

    public Builder apiVersion(String v) {
      this.apiVersion = Objects.requireNonNull(v);
      return this;
    }

    /** Records per query page before {@code nextRecordsUrl} kicks in. */
    public Builder queryBatchSize(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("queryBatchSize must be at least 1: " + v);
      }
      this.queryBatchSize = v;
      return this;
    }

    public Builder clock(Clock v) {
      this.clock = Objects.requireNonNull(v);
      return this;
    }

    /**
     * Binds the port and serves. Each call starts another org with the options as they are now.
     *
     * @throws IOException when the port cannot be bound
     */
    public FakeSalesforce start() throws IOException {
      return new FakeSalesforce(
          new OrgSettings(
              clientId,
              Optional.ofNullable(clientSecret),
              Optional.ofNullable(username),
              Optional.ofNullable(jwtPublicKey),
              Optional.ofNullable(audience),
              orgId,
              apiVersion,
              queryBatchSize,
              clock,
              port,
              seed,
              scopes));
    }

    /**
     * The same as {@link #start()}, for callers that cannot handle {@link IOException}.
     *
     * @throws UncheckedIOException when the port cannot be bound
     */
    public FakeSalesforce build() {
      try {
        return start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the fake Salesforce", e);
      }
    }
  }
}
