package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.sf2loki.testkit.FaultQueue;
import io.sf2loki.testkit.ProtocolFake;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.avro.Schema;

/**
 * A fake Salesforce Pub/Sub API on a loopback port (plaintext HTTP/2). See the package
 * documentation for what it serves; {@link ProtocolFake} for the shape it shares with the other
 * fakes. Thread-safe.
 *
 * <pre>
 * try (FakePubSub pubsub = FakePubSub.builder().standardTopics().start()) {
 *   pubsub.publish("/event/LoginEventStream", Map.of("Username", "a@b.c", "EventDate", now));
 *   pubsub.inject(PubSubFault.stream(PubSubFault.StreamKind.RST_STREAM, 3));
 *   // point sources.pubsub.endpoint at pubsub.uri() with plaintext = true
 * }
 * </pre>
 */
public final class FakePubSub implements ProtocolFake<PubSubFault> {

  /** The topics of {@link Builder#standardTopics()}. */
  public static final String LOGIN = "/event/LoginEventStream";

  public static final String REPORT = "/event/ReportEvent";
  public static final String ORDER = "/event/Order_Shipped__e";
  public static final String ACCOUNT_CHANGE = "/data/AccountChangeEvent";

  /** The Threat Detection event names, one channel {@code /event/<name>} each. */
  public static final List<String> THREAT_DETECTION_EVENTS =
      List.of(
          "ApiAnomalyEvent",
          "CredentialStuffingEvent",
          "GuestUserAnomalyEvent",
          "LoginAnomalyEvent",
          "ReportAnomalyEvent",
          "SessionHijackingEvent",
          "UniversalAnomalyEvent");

  private final Builder options;
  private final Server server;
  private final ScheduledExecutorService ticker;
  private final Optional<NetworkDelay> link;
  private final Random random;
  private final Map<String, TopicLog> topics = new ConcurrentHashMap<>();
  private final Map<String, String> schemas = new ConcurrentHashMap<>();
  private final Set<String> revoked = ConcurrentHashMap.newKeySet();
  private final Set<Subscription<?>> live = ConcurrentHashMap.newKeySet();
  private final ManagedSubscriptions managed = new ManagedSubscriptions();
  private final FaultQueue<PubSubFault> faults = new FaultQueue<>(PubSubFault::times);
  private final List<RecordedFetch> fetches = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
  private final AtomicInteger streams = new AtomicInteger();
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicInteger maxOutstanding = new AtomicInteger();

  private FakePubSub(Builder options) throws IOException {
    this.options = options;
    this.random = new Random(options.seed);
    options.topics.forEach(this::addTopic);
    options.denied.forEach(t -> topicLog(t).ifPresent(l -> l.canSubscribe(false)));
    options.managed.forEach(managed::put);
    PubSubService service = new PubSubService(this);
    this.link = options.networkDelay.map(NetworkDelay::new);
    ServerServiceDefinition served =
        ServerInterceptors.intercept(service, service.authentication());
    if (link.isPresent()) { // outermost: the delay is the network's, before anything is checked
      served = ServerInterceptors.intercept(served, link.get());
    }
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port))
            .addService(served)
            .permitKeepAliveWithoutCalls(true)
            .permitKeepAliveTime(1, TimeUnit.SECONDS)
            .maxInboundMessageSize(4 << 20);
    this.server = builder.build().start();
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "fake-pubsub-ticker"));
    ticker.scheduleWithFixedDelay(
        () -> live.forEach(Subscription::pump), 5, 5, TimeUnit.MILLISECONDS);
  }

  /** Defaults: org {@code 00D000000000001AAA}, any token, keepalive 500 ms, idle 2 s, 72 h. */
  public static Builder builder() {
    return new Builder();
  }

  /** {@code http://127.0.0.1:PORT}; the gRPC target is {@link #target()}. */
  @Override
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getPort());
  }

  /** {@code 127.0.0.1:PORT}, the {@code endpoint} to configure. */
  public String target() {
    return "127.0.0.1:" + server.getPort();
  }

  /** Adds (or replaces) a topic with {@code schema} as its current schema. */
  public void addTopic(String name, Schema schema) {
    schemas.put(TopicSchemas.schemaId(schema), schema.toString());
    topics.put(
        name,
        new TopicLog(
            name, schema, options.clock, options.retention, new Random(random.nextLong())));
  }

  /** Makes new events of {@code topic} use {@code schema}; old events keep their schema id. */
  public void evolveSchema(String topic, Schema schema) {
    schemas.put(TopicSchemas.schemaId(schema), schema.toString());
    log(topic).schema(schema);
  }

  /** Whether GetTopic reports {@code can_subscribe} for {@code topic} and Subscribe admits it. */
  public void canSubscribe(String topic, boolean allowed) {
    log(topic).canSubscribe(allowed);
  }

  /** Publishes one event encoded with the topic's current schema; returns its replay id. */
  public ByteString publish(String topic, Map<String, ?> fields) {
    TopicLog log = log(topic);
    TopicLog.Current schema = log.current();
    return append(log, schema.id(), schema.encode(fields));
  }

  /**
   * Publishes one event its publisher encoded with the topic's current schema (raw Avro binary, as
   * {@link TopicSchemas#encode} writes it); returns its replay id. For a publisher that must not
   * spend the CPU the fake's general encoder would, such as a benchmark's.
   */
  public ByteString publishEncoded(String topic, byte[] payload) {
    TopicLog log = log(topic);
    return append(log, log.schemaId(), payload);
  }

  private ByteString append(TopicLog log, String schemaId, byte[] payload) {
    String id = log.name().startsWith("/data/") ? null : "e" + Long.toHexString(random.nextLong());
    return log.append(schemaId, payload, id, false).replayId();
  }

  /**
   * Publishes one event of {@code member}'s type on a channel that mixes event types (an RTEM
   * custom channel {@code /event/<Name>__chn}): encoded with, and naming, the member's own schema,
   * which GetSchema then serves; returns its replay id.
   */
  public ByteString publishMember(String channel, Schema member, Map<String, ?> fields) {
    TopicLog log = log(channel);
    String schemaId = TopicSchemas.schemaId(member);
    schemas.put(schemaId, member.toString());
    byte[] payload = TopicSchemas.encode(member, fields);
    return log.append(schemaId, payload, "e" + Long.toHexString(random.nextLong()), false)
        .replayId();
  }

  /** Publishes a payload as is, under the topic's current schema id (an undecodable event). */
  public ByteString publishRaw(String topic, byte[] payload) {
    TopicLog log = log(topic);
    return log.append(log.schemaId(), payload, "raw", false).replayId();
  }

  /** Publishes an event naming a schema id GetSchema does not know. */
  public ByteString publishUnknownSchema(String topic, byte[] payload) {
    return log(topic).append("ffffffffffffffff", payload, "unknown", false).replayId();
  }

  /** Moves {@code topic}'s position without an event for this org (another org's traffic). */
  public ByteString advancePosition(String topic) {
    return log(topic).append("", new byte[0], null, true).replayId();
  }

  /** Org migration: {@code topic}'s stored ids all become invalid. */
  public void migrate(String topic) {
    log(topic).migrate();
  }

  /** The org's managed event subscriptions, their committed positions and what was received. */
  public ManagedSubscriptions managedSubscriptions() {
    return managed;
  }

  /** Cuts every live stream with {@code UNAVAILABLE} and no trailer. */
  public void cutStreams() {
    live.forEach(
        s -> s.fail(Status.UNAVAILABLE.withDescription("Network closed").asRuntimeException()));
  }

  /** Revokes every token seen so far and fails the live streams with the auth error. */
  public void expireTokens() {
    live.forEach(
        s -> {
          revoke(s.token());
          s.fail(PubSubErrors.auth());
        });
  }

  @Override
  public void inject(PubSubFault fault) {
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

  /** Every FetchRequest received, in order. */
  public List<RecordedFetch> fetches() {
    return List.copyOf(fetches);
  }

  /**
   * Calls of {@code method} ({@code Subscribe}, {@code ManagedSubscribe}, {@code GetSchema}, {@code
   * GetTopic}).
   */
  public long calls(String method) {
    AtomicLong n = calls.get(method);
    return n == null ? 0 : n.get();
  }

  /** Events delivered over every stream. */
  public long delivered() {
    return delivered.get();
  }

  /** The most credits ever outstanding on one stream (never above 100). */
  public int maxOutstanding() {
    return maxOutstanding.get();
  }

  /** Streams open now. */
  public int liveStreams() {
    return live.size();
  }

  /** Retained events of {@code topic}. */
  public int stored(String topic) {
    return log(topic).size();
  }

  /** The org id the fake expects in {@code tenantid}. */
  public String orgId() {
    return options.orgId;
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    link.ifPresent(NetworkDelay::close);
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // --- for the service and the subscriptions

  /** A new call's delivery side, live until it ends. */
  <R> Subscription<R> delivery(
      String token, ServerCallStreamObserver<R> out, Subscription.Responses<R> responses) {
    Subscription<R> s =
        new Subscription<>(
            this, streams.incrementAndGet(), token, out, new Random(random.nextLong()), responses);
    live.add(s);
    return s;
  }

  Optional<TopicLog> topicLog(String name) {
    return Optional.ofNullable(topics.get(name));
  }

  Optional<String> schemaJson(String id) {
    return Optional.ofNullable(schemas.get(id));
  }

  Optional<PubSubFault.Stream> takeStreamFault() {
    return faults.take(f -> f instanceof PubSubFault.Stream).map(PubSubFault.Stream.class::cast);
  }

  Optional<PubSubFault.Commit> takeCommitFault() {
    return faults.take(f -> f instanceof PubSubFault.Commit).map(PubSubFault.Commit.class::cast);
  }

  long nowMillis() {
    return options.clock.millis();
  }

  Optional<PubSubFault.Schema> takeSchemaFault() {
    return faults.take(f -> f instanceof PubSubFault.Schema).map(PubSubFault.Schema.class::cast);
  }

  boolean acceptsToken(String token) {
    return !revoked.contains(token) && options.tokens.test(token);
  }

  void revoke(String token) {
    revoked.add(token);
  }

  void record(RecordedFetch fetch) {
    fetches.add(fetch);
  }

  void countCall(String method) {
    calls.computeIfAbsent(method, m -> new AtomicLong()).incrementAndGet();
  }

  void countDelivered(int n) {
    delivered.addAndGet(n);
  }

  void observeOutstanding(int n) {
    maxOutstanding.accumulateAndGet(n, Math::max);
  }

  void ended(Subscription<?> s) {
    live.remove(s);
  }

  Duration keepaliveInterval() {
    return options.keepalive;
  }

  Duration idleTimeout() {
    return options.idle;
  }

  boolean idleEndsWithError() {
    return options.idleEndsWithError;
  }

  boolean rejectsNonPositiveRequests() {
    return options.rejectNonPositive;
  }

  private TopicLog log(String topic) {
    return topicLog(topic)
        .orElseThrow(() -> new IllegalArgumentException("no such topic: " + topic));
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /** Options of a {@link FakePubSub}. */
  public static final class Builder {
    private int port;
    private long seed = 17;
    private String orgId = "00D000000000001AAA";
    private Predicate<String> tokens = t -> true;
    private Duration keepalive = Duration.ofMillis(500);
    private Duration idle = Duration.ofSeconds(2);
    private boolean idleEndsWithError;
    private boolean rejectNonPositive = true;
    private Duration retention = Duration.ofHours(72);
    private Clock clock = Clock.systemUTC();
    private Optional<Duration> networkDelay = Optional.empty();
    private final Map<String, Schema> topics = new java.util.LinkedHashMap<>();
    private final Set<String> denied = new java.util.HashSet<>();
    private final List<ManagedEventSubscription> managed = new java.util.ArrayList<>();

    private Builder() {}

    /** A fixed port (0, the default: an ephemeral one). */
    public Builder port(int v) {
      this.port = v;
      return this;
    }

    /** Seeds the id gaps and the random delivery splits. */
    public Builder seed(long v) {
      this.seed = v;
      return this;
    }

    /** The org id {@code tenantid} must carry. */
    public Builder orgId(String v) {
      this.orgId = Objects.requireNonNull(v);
      return this;
    }

    /** Which access tokens are valid (e.g. {@code FakeSalesforce::isValidToken}). */
    public Builder tokens(Predicate<String> v) {
      this.tokens = Objects.requireNonNull(v);
      return this;
    }

    /** Silence before a keepalive while credits are outstanding (real: up to 270 s). */
    public Builder keepalive(Duration v) {
      this.keepalive = v;
      return this;
    }

    /**
     * With no credits outstanding and neither a request nor a response for this long the stream
     * ends: the timeout runs from the last response, the one that used up the credits (real: 60 s).
     */
    public Builder idleTimeout(Duration v) {
      this.idle = v;
      return this;
    }

    /** The idle rule ends a stream with {@code UNAVAILABLE} instead of a clean close. */
    public Builder idleEndsWithError(boolean v) {
      this.idleEndsWithError = v;
      return this;
    }

    /**
     * A one-way network delay on every message in both directions, in order (none by default: bare
     * loopback). A round trip, a top-up and the events it buys, takes twice this: 2.5 ms models a 5
     * ms link to Salesforce.
     */
    public Builder networkDelay(Duration oneWay) {
      if (oneWay.isNegative() || oneWay.isZero()) {
        throw new IllegalArgumentException("a network delay must be positive: " + oneWay);
      }
      this.networkDelay = Optional.of(oneWay);
      return this;
    }

    /** Whether {@code num_requested <= 0} is answered with INVALID_ARGUMENT (default true). */
    public Builder rejectNonPositiveRequests(boolean v) {
      this.rejectNonPositive = v;
      return this;
    }

    /** How long events are kept, on {@link #clock}. */
    public Builder retention(Duration v) {
      this.retention = v;
      return this;
    }

    /** The clock of publish times and retention. */
    public Builder clock(Clock v) {
      this.clock = Objects.requireNonNull(v);
      return this;
    }

    /** A topic and its current schema. */
    public Builder topic(String name, Schema schema) {
      topics.put(name, schema);
      return this;
    }

    /** A topic whose GetTopic says {@code can_subscribe = false}. */
    public Builder deniedTopic(String name, Schema schema) {
      topics.put(name, schema);
      denied.add(name);
      return this;
    }

    /** A ManagedEventSubscription record of the org (its topic must be one of the fake's). */
    public Builder managedSubscription(ManagedEventSubscription v) {
      managed.add(Objects.requireNonNull(v));
      return this;
    }

    /** LoginEventStream, ReportEvent, Order_Shipped__e and AccountChangeEvent. */
    public Builder standardTopics() {
      topic(LOGIN, TopicSchemas.loginEventStream());
      topic(REPORT, TopicSchemas.reportEvent());
      topic(ORDER, TopicSchemas.platformEvent("Order_Shipped__e"));
      return topic(ACCOUNT_CHANGE, TopicSchemas.accountChangeEvent());
    }

    /**
     * The seven Threat Detection channels ({@code /event/ApiAnomalyEvent} ... {@code
     * /event/UniversalAnomalyEvent}), each with its {@link TopicSchemas#anomalyEvent} schema.
     */
    public Builder threatDetectionTopics() {
      for (String name : THREAT_DETECTION_EVENTS) {
        topic("/event/" + name, TopicSchemas.anomalyEvent(name));
      }
      return this;
    }

    /** Binds the port and serves. */
    public FakePubSub start() throws IOException {
      return new FakePubSub(this);
    }
  }
}
