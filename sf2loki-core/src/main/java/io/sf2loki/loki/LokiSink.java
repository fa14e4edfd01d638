package io.sf2loki.loki;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.config.Urls;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.spi.Sink;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Sink} that pushes to Grafana Loki (loki-push.md §1–§6).
 *
 * <p>Per push: deliverable entries are shaped (line cap, label guard), grouped into streams by
 * label set (timestamp order within a stream), encoded (protobuf+snappy or JSON, optionally gzip)
 * and POSTed. 429, 5xx and transport errors are retried here with jittered exponential backoff
 * honouring {@code Retry-After} (capped), then surface as {@link RetryableSinkException}; 401, 403,
 * 404 and unexpected statuses surface at once as retryable (misconfiguration must not lose data);
 * 400 and 413 bisect the batch down to the entries Loki rejects, which are dropped, counted, and
 * appended to the dead-letter file, while the rest is delivered — the call then returns normally.
 *
 * <p>Each batch is shaped once and, when the pipeline calls {@link #prepare} on the lane's batching
 * thread, encoded there ahead of its push; retries reuse both ({@link PreparedBatches}).
 *
 * <p>Thread-safe: the two lanes call {@link #prepare} and {@link #push} concurrently over one
 * pooled HTTP client. Build with {@link #builder}, {@link #close} when done.
 */
public final class LokiSink implements Sink, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LokiSink.class);

  private final LokiSinkConfig config;
  private final LokiHttpTransport transport;
  private final LokiEncoder encoder;
  private final EntryShaper shaper;
  private final LokiMetrics metrics;
  private final Optional<DeadLetterFile> deadLetter;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Backoff backoff;
  private final String target;
  private final AtomicInteger authFailures = new AtomicInteger();
  private final PreparedBatches prepared = new PreparedBatches();

  private LokiSink(Builder b) throws IOException {
    this.config = b.config;
    this.clock = b.clock;
    this.transport = new LokiHttpTransport(b.config, b.userAgent);
    this.encoder = LokiEncoder.of(b.config.encoding(), b.config.gzip());
    this.metrics = new LokiMetrics(b.registry);
    this.shaper =
        new EntryShaper(
            new LineTruncator(b.config.maxLineBytes()), new LabelGuard(b.extraLabelNames), metrics);
    this.deadLetter = b.config.deadLetterFile().map(p -> new DeadLetterFile(p, b.clock));
    this.sleeper = b.sleeper;
    this.backoff =
        Backoff.exponential(b.config.retry().minBackoff(), b.config.retry().maxBackoff(), b.random);
    this.target = Urls.redact(b.config.pushUrl());
  }

  /** A builder over a bound {@code sink.loki} section. */
  public static Builder builder(LokiSinkConfig config, MeterRegistry registry) {
    return new Builder(config, registry);
  }

  @Override
  public void push(Batch batch) throws RetryableSinkException, InterruptedException {
    PreparedBatches.Prepared p = prepared.find(batch).orElseGet(() -> shapeOnce(batch));
    List<LogEntry> pending = p.pending();
    if (!pending.isEmpty()) {
      deliver(pending, p.pendingBody(), p.resolved());
    }
    prepared.remove(batch); // delivered (or its rejects dropped): never pushed again
  }

  /**
   * Shapes and encodes {@code batch} ahead of its push (on the lane's batching thread, while the
   * previous batch is in push). An encoding failure is left for the push to report.
   */
  @Override
  public void prepare(Batch batch) {
    if (batch.isCheckpointOnly() || prepared.find(batch).isPresent()) {
      // Never pushed, so a slot for it would only be evicted by age, possibly before a live one.
      return;
    }
    List<LogEntry> entries = shaper.shape(batch);
    Optional<EncodedBody> body = Optional.empty();
    if (!entries.isEmpty()) {
      try {
        body = Optional.of(encode(entries));
      } catch (RetryableSinkException e) {
        LOG.debug("encoding ahead of the push failed; the push encodes again", e);
      }
    }
    prepared.put(new PreparedBatches.Prepared(batch, entries, body));
  }

  private PreparedBatches.Prepared shapeOnce(Batch batch) {
    PreparedBatches.Prepared p =
        new PreparedBatches.Prepared(batch, shaper.shape(batch), Optional.empty());
    prepared.put(p);
    return p;
  }

  /**
   * Pushes {@code entries}, bisecting on 400/413 until the rejected ones are isolated.
   *
   * @param encoded the body of exactly {@code entries}, when already encoded
   */
  private void deliver(
      List<LogEntry> entries, Optional<EncodedBody> encoded, Set<LogEntry> resolved)
      throws RetryableSinkException, InterruptedException {
    EncodedBody body = encoded.isPresent() ? encoded.get() : encode(entries);
    LokiHttpTransport.Response r = sendWithRetries(body);
    if (r.status() < 300) {
      metrics.bytesPushed(body.bytes().length);
      authFailures.set(0);
      resolved.addAll(entries);
      return;
    }
    if (entries.size() == 1) {
      drop(entries.get(0), r);
      resolved.add(entries.get(0));
      return;
    }
    // Loki may have stored the valid part already; re-pushing it is harmless (exact duplicates
    // are dropped server-side).
    int mid = entries.size() / 2;
    deliver(entries.subList(0, mid), Optional.empty(), resolved);
    deliver(entries.subList(mid, entries.size()), Optional.empty(), resolved);
  }

  private EncodedBody encode(List<LogEntry> entries) throws RetryableSinkException {
    try {
      return encoder.encode(LokiStream.group(entries));
    } catch (IOException e) {
      throw new RetryableSinkException("cannot encode push body: " + e.getMessage(), 0, null, e);
    }
  }

  /** Sends until a final answer: 2xx, 400 or 413; everything else ends retryable. */
  private LokiHttpTransport.Response sendWithRetries(EncodedBody body)
      throws RetryableSinkException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      if (Thread.interrupted()) {
        throw new InterruptedException("push to " + target + " interrupted");
      }
      RetryableSinkException failure;
      try {
        LokiHttpTransport.Response r = transport.send(body);
        int s = r.status();
        if (s < 300 && s >= 200 || s == 400 || s == 413) {
          return r;
        }
        failure = classify(r);
      } catch (IOException e) {
        failure =
            new RetryableSinkException(
                "transport error pushing to "
                    + target
                    + ": "
                    + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()),
                0,
                null,
                e);
      }
      if (attempt >= config.retry().attempts()) {
        throw failure;
      }
      Duration wait = backoff.delay(attempt);
      if (failure.retryAfter().isPresent()) {
        wait = Backoff.honouring(wait, failure.retryAfter().get(), config.retry().maxRetryAfter());
      }
      LOG.debug("push attempt {} failed ({}); retrying in {}", attempt, failure.getMessage(), wait);
      sleeper.sleep(wait);
    }
  }

  /** A retryable failure for a non-final status; throws at once for the non-internal ones. */
  private RetryableSinkException classify(LokiHttpTransport.Response r)
      throws RetryableSinkException {
    int s = r.status();
    Duration retryAfter = RetryAfter.parse(r.retryAfter().orElse(null), clock).orElse(null);
    String message = "Loki at " + target + " answered " + s + describe(r.body());
    if (s == 429 || s >= 500) {
      return new RetryableSinkException(message, s, retryAfter, null);
    }
    if (s == 401 || s == 403 || s == 404) {
      authFailure(s);
    }
    throw new RetryableSinkException(message, s, retryAfter, null);
  }

  private void authFailure(int status) {
    int n = authFailures.incrementAndGet();
    if (n == 1 || n % 10 == 0) {
      String hint =
          status == 404
              ? "check sink.loki.url (it must reach " + LokiSinkConfig.PUSH_PATH + ")"
              : "check sink.loki.tenant_id and that the token has the logs:write scope";
      LOG.error(
          "Loki at {} answered {} ({} consecutive): {}; the data is kept and retried",
          target,
          status,
          n,
          hint);
    }
  }

  private void drop(LogEntry e, LokiHttpTransport.Response r) {
    String reason = r.status() == 413 ? "oversized_413" : "bad_request";
    metrics.dropped(e, reason);
    LOG.warn(
        "Loki rejected an entry for good ({}{}); dropped it (source={}, event_type={})",
        r.status(),
        describe(r.body()),
        e.labels().getOrDefault("source", "unknown"),
        e.labels().getOrDefault("event_type", "unknown"));
    if (deadLetter.isPresent()) {
      try {
        deadLetter.get().append(e, reason, r.status(), r.body());
      } catch (IOException io) {
        LOG.warn(
            "cannot append to dead-letter file {}: {}", deadLetter.get().path(), io.toString());
      }
    }
  }

  private static String describe(String body) {
    if (body.isEmpty()) {
      return "";
    }
    String oneLine = body.replace('\n', ' ');
    return ": " + (oneLine.length() > 300 ? oneLine.substring(0, 300) + "…" : oneLine);
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
    private Clock clock = Clock.systemUTC();
    private Sleeper sleeper = Sleeper.SYSTEM;
    private RandomGenerator random = RandomGenerator.getDefault();
    private String userAgent = defaultUserAgent();
    private Set<String> extraLabelNames = Set.of();

    private Builder(LokiSinkConfig config, MeterRegistry registry) {
      this.config = Objects.requireNonNull(config, "config");
      this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Wall clock, for {@code Retry-After} dates and dead-letter records. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** How the internal retry waits (tests pass a recording one). */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** Jitter source of the internal backoff. */
    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
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

    /**
     * Builds the sink.
     *
     * @throws IOException when the CA file cannot be loaded
     */
    public LokiSink build() throws IOException {
      return new LokiSink(this);
    }

    private static String defaultUserAgent() {
      String v = LokiSink.class.getPackage().getImplementationVersion();
      return "sf2loki/" + (v == null ? "dev" : v);
    }
  }
}
