package io.sf2loki.loki;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.config.Urls;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.spi.Sink;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Sink} that pushes to Grafana Loki (loki-push.md §1–§7).
 *
 * <p>Per batch: deliverable entries are shaped (line cap, label guard), planned against Loki's time
 * rules ({@link WindowPlanner}: late entries routed to a {@code late} stream or re-timestamped,
 * too-new ones held, by the configured policy), grouped into streams by label set (timestamp order
 * within a stream), encoded (protobuf+snappy or JSON, optionally gzip) and POSTed ({@link
 * PushSender}: one attempt; 429, 5xx, transport errors, 401, 403, 404 and unexpected statuses
 * surface as {@link RetryableSinkException}, and the lane retries the same batch, sending only what
 * is still unresolved). A 400 that names a time rule is learned from and the entries are planned
 * again, never dropped; other 400s and 413s bisect the batch down to the entries Loki rejects,
 * which are dropped, counted, and appended to the dead-letter file, while the rest is delivered
 * ({@link BatchPush}). A stream Loki has not yet accepted alone is pushed alone, because Loki
 * reports only the last stream's too-far-behind entries ({@link StreamNewest}).
 *
 * <p>Each batch is shaped and planned once and, when the pipeline calls {@link #prepare} on the
 * lane's batching thread, encoded there ahead of its push; retries reuse all three ({@link
 * PreparedBatches}) unless Loki taught the planner something in between.
 *
 * <p>Thread-safe: the two lanes call {@link #prepare} and {@link #push} concurrently over one
 * pooled HTTP client. Build with {@link #builder}, {@link #close} when done.
 */
public final class LokiSink implements Sink, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LokiSink.class);
  // A plan's ages and holds are measured from when it was made: one older than this (a batch
  // retried through an outage) is made again before its push.
  private static final Duration PLAN_MAX_AGE = Duration.ofMinutes(1);

  private final LokiSinkConfig config;
  private final LokiHttpTransport transport;
  private final LokiEncoder encoder;
  private final EntryShaper shaper;
  private final LokiMetrics metrics;
  private final Optional<DeadLetterFile> deadLetter;
  private final Clock clock;
  private final PushSender sender;
  private final WindowPlanner planner;
  private final PlacementLedger ledger;
  private final Parts parts;
  private final PreparedBatches prepared = new PreparedBatches();

  private LokiSink(Builder b) throws IOException {
    this.config = b.config;
    this.clock = b.clock;
    this.transport = new LokiHttpTransport(b.config, b.userAgent);
    this.encoder = LokiEncoder.of(b.config.encoding(), b.config.gzip());
    this.metrics = new LokiMetrics(b.registry);
    this.shaper =
        new EntryShaper(
            new LineTruncator(b.config.maxLineBytes()),
            new StreamLabelGuard(b.extraLabelNames),
            metrics);
    this.deadLetter =
        b.config
            .deadLetterFile()
            .map(p -> new DeadLetterFile(p, b.config.deadLetterMaxBytes(), b.clock));
    this.sender =
        new PushSender(
            transport,
            metrics,
            b.clock,
            Urls.redact(b.config.pushUrl()),
            b.config.tenantId().orElse("fake"));
    this.ledger = b.ledger;
    this.planner = new WindowPlanner(b.config.windows(), new StreamNewest(), b.ledger);
    this.parts = new Parts(b, planner);
  }

  /**
   * A builder over a bound {@code sink.loki} section.
   *
   * @param clock wall clock, for {@code Retry-After} dates, time windows and dead-letter records
   */
  public static Builder builder(LokiSinkConfig config, MeterRegistry registry, Clock clock) {
    return new Builder(config, registry, clock);
  }

  @Override
  public void push(Batch batch) throws RetryableSinkException, InterruptedException {
    PreparedBatches.Prepared p = prepared.find(batch).orElseGet(() -> shapeOnce(batch));
    List<LogEntry> pending = p.pending();
    if (!pending.isEmpty()) {
      Instant now = clock.instant();
      WindowPlan first = p.plan().get();
      boolean reuse =
          first != null
              && p.resolved().isEmpty()
              && first.version() == planner.newest().version()
              && Duration.between(first.plannedAt(), now).compareTo(PLAN_MAX_AGE) < 0;
      WindowPlan plan;
      if (reuse) {
        plan = first;
      } else if (first == null) {
        plan = planner.plan(pending, now);
        p.plan().set(plan);
        first = plan;
      } else {
        plan = planner.replan(pending, first, now);
      }
      new BatchPush<>(parts, p.resolved(), first)
          .run(plan, reuse ? p.body() : Optional.<EncodedBody>empty());
    }
    prepared.remove(batch); // delivered (or its rejects dropped): never pushed again
  }

  /**
   * Shapes, plans and encodes {@code batch} ahead of its push (on the lane's batching thread, while
   * the previous batch is in push). An encoding failure is left for the push to report.
   */
  @Override
  public void prepare(Batch batch) {
    if (batch.isCheckpointOnly() || prepared.find(batch).isPresent()) {
      // Never pushed, so a slot for it would only be evicted by age, possibly before a live one.
      return;
    }
    List<LogEntry> entries = shaper.shape(batch);
    WindowPlan plan = planner.plan(entries, clock.instant());
    Optional<EncodedBody> body = Optional.empty();
    if (!plan.send().isEmpty()) {
      try {
        body = Optional.of(encode(plan.send()));
      } catch (RetryableSinkException e) {
        LOG.debug("encoding ahead of the push failed; the push encodes again", e);
      }
    }
    prepared.put(new PreparedBatches.Prepared(batch, entries, plan, body));
  }

  private PreparedBatches.Prepared shapeOnce(Batch batch) {
    PreparedBatches.Prepared p =
        new PreparedBatches.Prepared(batch, shaper.shape(batch), null, Optional.empty());
    prepared.put(p);
    return p;
  }

  private EncodedBody encode(List<LogEntry> entries) throws RetryableSinkException {
    try {
      return encoder.encode(LokiStream.group(entries));
    } catch (IOException e) {
      throw new RetryableSinkException("cannot encode push body: " + e.getMessage(), 0, null, e);
    }
  }

  /** What a {@link BatchPush} works with: this sink's planner, policies, wire and files. */
  final class Parts extends PushParts<EncodedBody> {

    Parts(Builder b, WindowPlanner planner) {
      super(
          planner,
          b.clock,
          b.config.windows(),
          "sink.loki",
          b.sleeper,
          b.registry,
          new AtomicReference<>(Instant.MIN));
    }

    @Override
    PlacementLedger ledger() {
      return ledger;
    }

    @Override
    EncodedBody encode(List<LogEntry> entries) throws RetryableSinkException {
      return LokiSink.this.encode(entries);
    }

    @Override
    Answer send(EncodedBody body) throws RetryableSinkException, InterruptedException {
      LokiHttpTransport.Response r = sender.send(body);
      int s = r.status();
      return new Answer(s, s < 300, s == 413 ? "oversized_413" : "bad_request", r.body());
    }

    @Override
    void accepted(EncodedBody body) {
      metrics.bytesPushed(body.bytes().length);
    }

    @Override
    String target() {
      return sender.target();
    }

    @Override
    void deadLetter(LogEntry e, String reason, int status, String error) {
      if (deadLetter.isPresent()) {
        try {
          deadLetter.get().append(e, reason, status, error);
        } catch (IOException io) {
          metrics.deadLetterWriteFailed();
          LOG.error(
              "cannot append a dropped entry to dead-letter file {}; it is lost: {}",
              deadLetter.get().path(),
              io.toString());
        }
      }
    }
  }

  /** Closes the HTTP client. Idempotent. */
  @Override
  public void close() {
    transport.close();
  }

  /** Assembles a {@link LokiSink}; {@link #build()} sets up TLS and the connection pool. */
  public static final class Builder {
    private final LokiSinkConfig config;
    private final MeterRegistry registry;
    private final Clock clock;
    private Sleeper sleeper = Sleeper.SYSTEM;
    private String userAgent = defaultUserAgent();
    private Set<String> extraLabelNames = Set.of();
    private PlacementLedger ledger = PlacementLedger.NONE;

    private Builder(LokiSinkConfig config, MeterRegistry registry, Clock clock) {
      this.config = Objects.requireNonNull(config, "config");
      this.registry = Objects.requireNonNull(registry, "registry");
      this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** How a held push waits (tests pass one that moves a manual clock). */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** The {@code User-Agent}; default {@code sf2loki/<version>}. */
    public Builder userAgent(String userAgent) {
      this.userAgent = Objects.requireNonNull(userAgent, "userAgent");
      return this;
    }

    /** Stream label names allowed beyond the allowlist (promoted ELF labels, backfill). */
    public Builder extraLabelNames(Set<String> names) {
      this.extraLabelNames = Set.copyOf(names);
      return this;
    }

    /** Where a replay's entries were pushed before ({@code deadletter replay}); none unless set. */
    Builder placementLedger(PlacementLedger ledger) {
      this.ledger = Objects.requireNonNull(ledger, "ledger");
      return this;
    }

    /**
     * Builds the sink.
     *
     * @throws IOException when the CA file cannot be loaded
     */
    public LokiSink build() throws IOException {
      return new LokiSink(this);
    }

    static String defaultUserAgent() {
      String v = LokiSink.class.getPackage().getImplementationVersion();
      return "sf2loki/" + (v == null ? "dev" : v);
    }
  }
}
