package io.sf2loki.loki;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.spi.Secret;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * The pieces of the Loki sink that another HTTP sink (sf2loki-otlp) shares rather than copies: the
 * HTTP client set-up and the auth headers, TLS trust, {@code Retry-After}, the transport-error
 * vocabulary, the one-line answer text, the dead-letter file (so {@code deadletter replay} reads
 * every sink's records alike) and, for a sink whose endpoint is a Loki, Loki's time windows ({@link
 * #timeWindows}: the same planner, late-data policies, lessons and metrics as the Loki sink's). A
 * public facade over package-private classes, so the Loki sink's own structure stays as it is.
 */
public final class HttpSinkSupport {

  private HttpSinkSupport() {}

  /**
   * The HTTP client every sink uses: pooled, timeouts, optional proxy, TLS with {@code caFile}; no
   * automatic retries, redirects, decompression or cookies (the lane owns retries).
   *
   * @throws IOException when the CA file cannot be read or holds no certificate
   */
  public static CloseableHttpClient httpClient(
      Optional<Path> caFile,
      Duration connectTimeout,
      Duration timeout,
      Optional<URI> proxy,
      String userAgent)
      throws IOException {
    return SinkHttpClient.create(caFile, connectTimeout, timeout, proxy, userAgent);
  }

  /**
   * The Authorization (Basic with the tenant as user, or Bearer) and X-Scope-OrgID headers, as the
   * Loki sink sends them; a mutable map in that order.
   */
  public static Map<String, String> authHeaders(
      Optional<String> tenantId,
      Optional<Secret> basic,
      Optional<Secret> bearer,
      boolean sendTenantHeader) {
    return SinkHttpClient.authHeaders(tenantId, basic, bearer, sendTenantHeader);
  }

  /**
   * An SSL context trusting the JVM's roots and {@code caFile}'s certificates.
   *
   * @throws IOException when the CA file cannot be read or holds no certificate
   */
  public static SSLContext sslContext(Optional<Path> caFile) throws IOException {
    return TrustMaterial.sslContext(caFile);
  }

  /** The delay a {@code Retry-After} value asks for; empty when absent or unparseable. */
  public static Optional<Duration> retryAfter(String header, Clock clock) {
    return RetryAfter.parse(header, clock);
  }

  /**
   * The {@code reason} tag of a transport error: {@code timeout}, {@code connect}, {@code tls},
   * {@code connection_closed} or {@code io}.
   */
  public static String transportReason(IOException e) {
    return PushSender.transportReason(e);
  }

  /** {@code ": "} and {@code body} on one line, cut at 300 characters; empty for an empty body. */
  public static String describe(String body) {
    return PushSender.describe(body);
  }

  /**
   * A dead-letter file in the format {@link DeadLetterRecords} reads back.
   *
   * @param maxBytes the size at which the file is rotated to {@code <path>.1}
   */
  public static DeadLetters deadLetters(Path path, long maxBytes, Clock clock) {
    return new DeadLetters(new DeadLetterFile(path, maxBytes, clock));
  }

  /**
   * Binds the time-window keys of {@code section} ({@code out_of_order_window}, {@code
   * creation_grace_period}, {@code max_age}, {@code late_policy}, {@code late_streams}, {@code
   * future_policy}, {@code max_hold}), with the checks and meaning they have under {@code
   * sink.loki}.
   */
  public static WindowSettings windowSettings(ConfigSection section) {
    String key = section.path("late_policy");
    return new WindowSettings(
        TimeWindowConfig.bind(section), key.substring(0, key.length() - ".late_policy".length()));
  }

  /** The time-window settings of a Loki behind another sink. */
  public static final class WindowSettings {
    private final TimeWindowConfig config;
    private final String section;

    private WindowSettings(TimeWindowConfig config, String section) {
      this.config = config;
      this.section = section;
    }

    /** Whether late entries are routed into streams of their own ({@code late_policy = route}). */
    public boolean routesLateEntries() {
      return config.latePolicy() == TimeWindowConfig.LatePolicy.ROUTE;
    }

    /** The label (and attribute) routed late entries carry: {@code late}. */
    public static String lateLabel() {
      return TimeWindowConfig.LATE_LABEL;
    }

    /** The structured-metadata key a re-timestamped entry keeps its event time in. */
    public static String eventTimeKey() {
      return TimeWindowConfig.EVENT_TIME_KEY;
    }
  }

  /** Which Loki stream an entry with these labels and structured metadata lands in. */
  @FunctionalInterface
  public interface StreamOf {
    /** The stream's label set; equal sets for entries of one stream. */
    StringMap of(StringMap labels, StringMap metadata);
  }

  /**
   * One final answer of the endpoint to one request.
   *
   * @param status the HTTP status
   * @param accepted whether every entry was stored
   * @param dropReason the drop {@code reason} of an entry refused alone for no time rule ({@code
   *     bad_request}, {@code oversized_413}, {@code partial_success})
   * @param message the endpoint's message (Loki's reasons, as its push API words them)
   */
  public record ExportAnswer(int status, boolean accepted, String dropReason, String message) {}

  /** One push's way to the endpoint, as the other sink sends, counts and dead-letters. */
  public interface Exporter {
    /**
     * Sends {@code entries} once (as planned: routed or re-timestamped ones as placed).
     *
     * @return the final answer: a 2xx, a 400 or a 413
     * @throws RetryableSinkException for any other answer or none
     */
    ExportAnswer export(List<LogEntry> entries) throws RetryableSinkException, InterruptedException;

    /** Dead-letters an entry dropped for good (counting and logging a write failure). */
    void deadLetter(LogEntry e, String reason, int status, String error);

    /** The redacted endpoint, for the log. */
    String target();
  }

  /**
   * The Loki sink's time-window handling for a sink whose endpoint is a Loki: per batch, entries
   * outside Loki's windows are routed, re-timestamped, held or dropped by the policies of {@code
   * settings}, a 400 naming a time rule is learned from and the entries planned again, a stream not
   * yet accepted alone is sent alone (Loki reports only the last stream's too-far-behind entries),
   * and other 400s and 413s are bisected down to the entries refused for good. Counted in the Loki
   * sink's {@code sf2loki_loki_out_of_window_entries}, {@code sf2loki_loki_window_rejections} and
   * {@code sf2loki_loki_entries_dropped}.
   *
   * @param streams which Loki stream each entry lands in
   * @param sleeper how a push held for too-new entries waits
   */
  public static TimeWindows timeWindows(
      WindowSettings settings,
      StreamOf streams,
      MeterRegistry registry,
      Clock clock,
      Sleeper sleeper) {
    return new TimeWindows(
        new WindowedExport(
            settings.config, settings.section, streams::of, registry, clock, sleeper));
  }

  /** See {@link #timeWindows}. Thread-safe. */
  public static final class TimeWindows {
    private final WindowedExport export;

    private TimeWindows(WindowedExport export) {
      this.export = export;
    }

    /**
     * Plans and delivers {@code pending}, the entries of {@code batch} not resolved yet; when it
     * fails part-way it adds to {@code resolved} what it delivered or dropped, so the lane's retry
     * of the batch sends only the rest.
     */
    public void push(Batch batch, List<LogEntry> pending, Set<LogEntry> resolved, Exporter exporter)
        throws RetryableSinkException, InterruptedException {
      export.push(batch, pending, resolved, exporter);
    }
  }

  /** Appends permanently rejected entries as JSON lines, fsynced. Thread-safe. */
  public static final class DeadLetters {
    private final DeadLetterFile file;

    private DeadLetters(DeadLetterFile file) {
      this.file = file;
    }

    /** The file's path. */
    public Path path() {
      return file.path();
    }

    /**
     * Appends one record.
     *
     * @param reason the drop reason ({@code bad_request}, ...)
     * @param status the HTTP status of the rejection, 0 when none
     * @param error the backend's message (shortened in the record)
     * @throws IOException when the record cannot be written; the caller counts and logs it
     */
    public void append(LogEntry e, String reason, int status, String error) throws IOException {
      file.append(e, reason, status, error);
    }
  }
}
