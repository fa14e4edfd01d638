package io.sf2loki.loki;

import io.sf2loki.spi.RetryableSinkException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes one classified attempt at one push: an answer that means "stored" (204, or a 200 without an
 * error body), 400 and 413 come back to the caller; every other answer surfaces as {@link
 * RetryableSinkException} with the status and any {@code Retry-After}, for the lane to back off and
 * retry the same batch — the lane is the one retry owner. That includes Loki 3.2's 260 for a tenant
 * whose ingestion an operator blocked ({@link IngestionBlock}), a 2xx that stores nothing: its wait
 * is the block's remaining time when the body names its end, and the block is logged and gauged
 * once per change, not per attempt. 401/403/404 also log an ERROR naming the likely fix
 * (misconfiguration must not lose data). Every answer and every attempt without one is counted.
 * Thread-safe.
 */
final class PushSender {

  private static final Logger LOG = LoggerFactory.getLogger(PushSender.class);

  private final LokiHttpTransport transport;
  private final Clock clock;
  private final String target;
  private final LokiMetrics metrics;
  private final String tenant;
  private final AtomicInteger authFailures = new AtomicInteger();
  private final AtomicReference<IngestionBlock> block = new AtomicReference<>();

  /**
   * @param tenant the configured tenant ({@code fake} without one, as Loki names it), for a block
   *     whose body names none
   */
  PushSender(
      LokiHttpTransport transport, LokiMetrics metrics, Clock clock, String target, String tenant) {
    this.transport = transport;
    this.metrics = metrics;
    this.clock = clock;
    this.target = target;
    this.tenant = tenant;
  }

  /** The redacted push URL, for messages. */
  String target() {
    return target;
  }

  /** One attempt: the answer when it is final (stored, 400 or 413); otherwise retryable. */
  LokiHttpTransport.Response send(EncodedBody body)
      throws RetryableSinkException, InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException("push to " + target + " interrupted");
    }
    LokiHttpTransport.Response r;
    try {
      r = transport.send(body);
    } catch (IOException e) {
      metrics.transportError(transportReason(e));
      throw new RetryableSinkException(
          "transport error pushing to "
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
    if (stored(r)) {
      authFailures.set(0);
      unblocked();
      return r;
    }
    if (s == 400 || s == 413) {
      return r;
    }
    Optional<IngestionBlock> blocked = IngestionBlock.of(s, r.body(), tenant);
    if (blocked.isPresent()) {
      throw blocked(r, blocked.get());
    }
    throw classify(r);
  }

  /**
   * True when Loki stored the push: 204, or 200 (a proxy's, or Loki told to answer a block with 200
   * — then nothing says otherwise) unless its body reads as an error. Any other 2xx is not taken as
   * stored without knowing what it means.
   */
  static boolean stored(LokiHttpTransport.Response r) {
    if (r.status() == 204) {
      return true;
    }
    if (r.status() != 200) {
      return false;
    }
    String body = r.body().strip().toLowerCase(java.util.Locale.ROOT);
    return !body.contains("error") && !body.contains("blocked");
  }

  private RetryableSinkException blocked(LokiHttpTransport.Response r, IngestionBlock b) {
    IngestionBlock before = block.getAndSet(b);
    if (before == null || !before.equals(b)) {
      if (before != null && !before.tenant().equals(b.tenant())) {
        metrics.ingestionBlocked(before.tenant(), false);
      }
      metrics.ingestionBlocked(b.tenant(), true);
      LOG.error(
          "Loki at {} blocks the ingestion of {}: it answered {} and stored nothing; the data is"
              + " kept and retried until an operator lifts or ends the block"
              + " (limits_config.block_ingestion_until)",
          target,
          b.describe(),
          r.status());
    }
    Duration wait = b.until().map(u -> Duration.between(clock.instant(), u)).orElse(null);
    if (wait == null) {
      wait = RetryAfter.parse(r.retryAfter().orElse(null), clock).orElse(null);
    } else if (wait.isNegative()) {
      wait = Duration.ZERO;
    }
    return new RetryableSinkException(
        "Loki at "
            + target
            + " answered "
            + r.status()
            + ", ingestion blocked, nothing stored"
            + describe(r.body()),
        r.status(),
        wait,
        null);
  }

  private void unblocked() {
    IngestionBlock before = block.getAndSet(null);
    if (before != null) {
      metrics.ingestionBlocked(before.tenant(), false);
      LOG.info("Loki at {} stores pushes of tenant '{}' again", target, before.tenant());
    }
  }

  /** The retryable failure for a non-final status. */
  private RetryableSinkException classify(LokiHttpTransport.Response r) {
    int s = r.status();
    Duration retryAfter = RetryAfter.parse(r.retryAfter().orElse(null), clock).orElse(null);
    if (s == 401 || s == 403 || s == 404) {
      authFailure(s);
    }
    return new RetryableSinkException(
        "Loki at " + target + " answered " + s + describe(r.body()), s, retryAfter, null);
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

  /** A small, fixed vocabulary for the transport error counter. */
  static String transportReason(IOException e) {
    if (e instanceof java.net.SocketTimeoutException
        || e instanceof java.io.InterruptedIOException) {
      return "timeout";
    }
    if (e instanceof java.net.ConnectException
        || e instanceof org.apache.hc.client5.http.HttpHostConnectException
        || e instanceof java.net.UnknownHostException) {
      return "connect";
    }
    if (e instanceof javax.net.ssl.SSLException) {
      return "tls";
    }
    if (e instanceof org.apache.hc.core5.http.NoHttpResponseException
        || e instanceof org.apache.hc.core5.http.ConnectionClosedException
        || e instanceof java.net.SocketException) {
      return "connection_closed";
    }
    return "io";
  }

  /** {@code ": "} and the body on one line, cut at 300 characters; empty for an empty body. */
  static String describe(String body) {
    if (body.isEmpty()) {
      return "";
    }
    String oneLine = body.replace('\n', ' ');
    return ": " + (oneLine.length() > 300 ? oneLine.substring(0, 300) + "…" : oneLine);
  }
}
