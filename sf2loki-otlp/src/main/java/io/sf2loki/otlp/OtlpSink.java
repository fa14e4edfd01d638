package io.sf2loki.otlp;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.config.Urls;
import io.sf2loki.loki.HttpSinkSupport;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Sink} that exports entries as OpenTelemetry logs over OTLP/HTTP (docs/sinks/otlp.md).
 *
 * <p>One attempt per push: 429, 5xx, transport errors, 401, 403, 404 and unexpected statuses
 * surface as {@link RetryableSinkException} with any {@code Retry-After}, and the lane — the one
 * retry owner — pushes the same batch again, sending only what is still unresolved. A 2xx whose
 * {@code partial_success} reports rejected records is not a success: OTLP does not say which were
 * rejected, so the request is bisected (like the Loki sink's 400) down to the records the backend
 * rejects, which are dropped, counted and dead-lettered with its {@code error_message}, while the
 * rest is delivered. A 400 or 413 is bisected the same way. Re-sent halves repeat records the
 * backend already accepted: Loki drops such exact duplicates, another backend may keep them. Except
 * a 400 showing that the endpoint does not decompress {@code sink.otlp.compression = zstd} or
 * {@code lz4} ({@link CodecRefusedException}): a configuration error, not bad records, so nothing
 * is bisected or dropped and the lane retries until the operator switches to gzip.
 *
 * <p>When the endpoint is a Loki ({@code sink.otlp.loki.enabled}), a push goes through {@link
 * LokiWindows} instead: planned against the Loki's time windows by the Loki sink's policies, then
 * exported, bisected and dead-lettered as the Loki sink does.
 *
 * <p>When the pipeline calls {@link #prepare} on the lane's batching thread, the batch is encoded
 * and compressed there, ahead of its push; the lane's retries send that same body, never encoding
 * or compressing the records again ({@link PreparedExports}). Not with {@code sink.otlp.loki}: the
 * plan, made at push time, decides which entries go in which export.
 *
 * <p>Thread-safe: both lanes push concurrently over one pooled HTTP client. {@link #close} when
 * done.
 */
public final class OtlpSink implements Sink, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OtlpSink.class);

  private final OtlpSinkConfig config;
  private final OtlpHttpTransport transport;
  private final OtlpEncoder encoder;
  private final OtlpMetrics metrics;
  private final Optional<HttpSinkSupport.DeadLetters> deadLetters;
  private final Clock clock;
  private final String target;
  private final Optional<LokiWindows> lokiWindows; // when the endpoint is a Loki (sink.otlp.loki)
  private final AtomicInteger authFailures = new AtomicInteger();
  private final AtomicInteger codecRefusals = new AtomicInteger();
  private final PreparedExports exports = new PreparedExports();

  /**
   * Creates the sink and its HTTP client.
   *
   * @param clock wall clock, for {@code Retry-After} dates, observed times and dead-letter records
   * @throws IOException when the CA file cannot be loaded
   */
  public OtlpSink(OtlpSinkConfig config, MeterRegistry registry, Clock clock) throws IOException {
    this(config, registry, clock, Sleeper.SYSTEM);
  }

  /**
   * Creates the sink and its HTTP client.
   *
   * @param clock wall clock, for {@code Retry-After} dates, observed times, dead-letter records and
   *     Loki's time windows
   * @param sleeper how an export held back for too-new entries waits ({@code sink.otlp.loki})
   * @throws IOException when the CA file cannot be loaded
   */
  public OtlpSink(OtlpSinkConfig config, MeterRegistry registry, Clock clock, Sleeper sleeper)
      throws IOException {
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.metrics = new OtlpMetrics(registry);
    this.transport = new OtlpHttpTransport(config, userAgent());
    this.encoder =
        new OtlpEncoder(
            new LogRecordMapping(config),
            config.encoding(),
            config.compression(),
            config.compressionLevel(),
            version());
    this.deadLetters =
        config
            .deadLetterFile()
            .map(p -> HttpSinkSupport.deadLetters(p, config.deadLetterMaxBytes(), clock));
    this.target = Urls.redact(config.logsUrl());
    this.lokiWindows =
        config
            .loki()
            .map(
                l ->
                    new LokiWindows(
                        l, new LogRecordMapping(config), metrics, registry, clock, sleeper));
  }

  @Override
  public void push(Batch batch) throws RetryableSinkException, InterruptedException {
    PreparedExports.Export export =
        exports.find(batch).orElseGet(() -> exports.put(newExport(batch)));
    // On a failure the export stays, with its body and what it resolved, for the lane's retry.
    if (lokiWindows.isPresent()) {
      lokiWindows
          .get()
          .push(batch, export.pending(), export.resolved(), this, export.observedNanos());
    } else {
      new Delivery(export).deliver(export.pending());
    }
    exports.remove(batch); // delivered (or its rejects dropped): never pushed again
  }

  /**
   * Encodes and compresses {@code batch} ahead of its push (on the lane's batching thread, while
   * the previous batch is in push). An encoding failure is left for the push to report.
   */
  @Override
  public void prepare(Batch batch) {
    if (batch.isCheckpointOnly() || lokiWindows.isPresent() || exports.find(batch).isPresent()) {
      // Never pushed, so a slot for it would only be evicted, possibly before a live one.
      return;
    }
    PreparedExports.Export export = newExport(batch);
    try {
      export.body().set(encoder.encode(export.entries(), export.observedNanos()));
    } catch (IOException e) {
      LOG.debug("encoding ahead of the push failed; the push encodes again", e);
    }
    exports.put(export);
  }

  private PreparedExports.Export newExport(Batch batch) {
    return new PreparedExports.Export(batch, batch.deliverable(), nanos(clock.instant()), null);
  }

  /** One push's sends, recording what it resolved in the batch's export. */
  private final class Delivery {
    private final PreparedExports.Export export;

    Delivery(PreparedExports.Export export) {
      this.export = export;
    }

    void deliver(List<LogEntry> send) throws RetryableSinkException, InterruptedException {
      if (send.isEmpty()) {
        return;
      }
      OtlpEncoder.Body body = body(send);
      OtlpHttpTransport.Response r = attempt(body);
      int s = r.status();
      String reason;
      String message;
      if (s < 300) {
        OtlpAnswers.Outcome outcome = OtlpAnswers.outcome(r.contentType(), r.body());
        if (outcome.rejected() <= 0) {
          metrics.bytesPushed(body.bytes().length);
          if (send != export.entries()) { // all of them: the export is done, nothing to record
            export.resolved().addAll(send);
          }
          return;
        }
        metrics.rejected(Math.min(outcome.rejected(), send.size()));
        reason = "partial_success";
        message = outcome.message();
        if (outcome.rejected() >= send.size()) {
          drop(send, reason, s, message); // every record rejected: nothing to look for
          return;
        }
      } else {
        reason = s == 413 ? "oversized_413" : "bad_request";
        message = OtlpAnswers.errorText(r.contentType(), r.body());
      }
      if (send.size() == 1) {
        drop(send, reason, s, message);
        return;
      }
      int mid = send.size() / 2;
      deliver(send.subList(0, mid));
      deliver(send.subList(mid, send.size()));
    }

    private void drop(List<LogEntry> entries, String reason, int status, String message) {
      String error = message.isEmpty() ? "(no message)" : message;
      for (LogEntry e : entries) {
        export.resolved().add(e);
        metrics.dropped(e, reason);
        deadLetter(e, reason, status, error);
      }
      LOG.warn(
          "Dropped {} entr{} the OTLP endpoint {} rejected for good ({}, {}{})",
          entries.size(),
          entries.size() == 1 ? "y" : "ies",
          target,
          reason,
          status,
          HttpSinkSupport.describe(message));
    }

    /** The body of {@code send}: the export's own for all of its entries, made once. */
    private OtlpEncoder.Body body(List<LogEntry> send) throws RetryableSinkException {
      boolean whole = send == export.entries();
      OtlpEncoder.Body body = whole ? export.body().get() : null;
      if (body == null) {
        try {
          body = encoder.encode(send, export.observedNanos());
        } catch (IOException e) {
          throw new RetryableSinkException(
              "cannot encode export body: " + e.getMessage(), 0, null, e);
        }
        if (whole) {
          export.body().set(body);
        }
      }
      return body;
    }
  }

  /** A body for {@code entries} made now (planned exports: their entries are known only then). */
  OtlpEncoder.Body encode(List<LogEntry> entries, long observedNanos)
      throws RetryableSinkException {
    try {
      return encoder.encode(entries, observedNanos);
    } catch (IOException e) {
      throw new RetryableSinkException("cannot encode export body: " + e.getMessage(), 0, null, e);
    }
  }

  /** One attempt: the answer when final (2xx, 400, 413); otherwise retryable. */
  OtlpHttpTransport.Response attempt(OtlpEncoder.Body body)
      throws RetryableSinkException, InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException("export to " + target + " interrupted");
    }
    OtlpHttpTransport.Response r;
    try {
      r = transport.send(body);
    } catch (IOException e) {
      metrics.transportError(HttpSinkSupport.transportReason(e));
      throw new RetryableSinkException(
          "transport error exporting to "
              + target
              + ": "
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + e.getMessage()),
          0,
          null,
          e);
    }
    int s = r.status();
    metrics.response(s);
    if (s == 400 && config.compression().optional()) {
      String text = OtlpAnswers.errorText(r.contentType(), r.body());
      if (CodecRefusedException.refuses(config.compression(), text)) {
        CodecRefusedException refused =
            new CodecRefusedException(target, config.compression(), text);
        int n = codecRefusals.incrementAndGet();
        if (n == 1 || n % 10 == 0) {
          LOG.error("{} ({} consecutive); the data is kept and retried", refused.getMessage(), n);
        }
        throw refused;
      }
    }
    if (s >= 200 && s < 300 || s == 400 || s == 413) {
      if (s < 300) {
        authFailures.set(0);
      }
      return r;
    }
    Duration retryAfter =
        HttpSinkSupport.retryAfter(r.retryAfter().orElse(null), clock).orElse(null);
    if (s == 401 || s == 403 || s == 404) {
      authFailure(s);
    }
    throw new RetryableSinkException(
        "OTLP endpoint "
            + target
            + " answered "
            + s
            + HttpSinkSupport.describe(OtlpAnswers.errorText(r.contentType(), r.body())),
        s,
        retryAfter,
        null);
  }

  private void authFailure(int status) {
    int n = authFailures.incrementAndGet();
    if (n == 1 || n % 10 == 0) {
      String hint =
          status == 404
              ? "check sink.otlp.url (it must reach the logs path, e.g. /v1/logs or Loki's"
                  + " /otlp/v1/logs)"
              : "check sink.otlp.tenant_id, auth_token, bearer_token and headers";
      LOG.error(
          "OTLP endpoint {} answered {} ({} consecutive): {}; the data is kept and retried",
          target,
          status,
          n,
          hint);
    }
  }

  /**
   * Appends to the dead-letter file, when there is one. A failure is counted and logged, never
   * swallowed; the entry stays dropped (and counted): the backend refused it for good.
   */
  void deadLetter(LogEntry e, String reason, int status, String error) {
    if (deadLetters.isEmpty()) {
      return;
    }
    try {
      deadLetters.get().append(e, reason, status, error);
    } catch (IOException io) {
      metrics.deadLetterWriteFailed();
      LOG.error(
          "cannot append a dropped entry to dead-letter file {}; it is lost: {}",
          deadLetters.get().path(),
          io.toString());
    }
  }

  /** The redacted logs URL. */
  public String target() {
    return target;
  }

  OtlpSinkConfig config() {
    return config;
  }

  /** Closes the HTTP client. Idempotent. */
  @Override
  public void close() {
    transport.close();
  }

  static long nanos(Instant t) {
    return TimeUnit.SECONDS.toNanos(t.getEpochSecond()) + t.getNano();
  }

  static String version() {
    String v = OtlpSink.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  static String userAgent() {
    return "sf2loki/" + version();
  }
}
