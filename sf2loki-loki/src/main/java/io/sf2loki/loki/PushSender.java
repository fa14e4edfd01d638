package io.sf2loki.loki;

import io.sf2loki.pipeline.Backoff;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.RetryableSinkException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one encoded body until Loki gives a final answer: 2xx, 400 or 413 come back to the caller;
 * 429, 5xx and transport errors are retried with jittered exponential backoff honouring {@code
 * Retry-After} (capped) and then surface as {@link RetryableSinkException}; 401, 403, 404 and other
 * statuses surface at once as retryable, with an ERROR naming the likely fix (misconfiguration must
 * not lose data). Thread-safe.
 */
final class PushSender {

  private static final Logger LOG = LoggerFactory.getLogger(PushSender.class);

  private final LokiHttpTransport transport;
  private final LokiSinkConfig.RetryConfig retry;
  private final Backoff backoff;
  private final Sleeper sleeper;
  private final Clock clock;
  private final String target;
  private final LokiMetrics metrics;
  private final AtomicInteger authFailures = new AtomicInteger();

  PushSender(
      LokiHttpTransport transport,
      LokiMetrics metrics,
      LokiSinkConfig.RetryConfig retry,
      Backoff backoff,
      Sleeper sleeper,
      Clock clock,
      String target) {
    this.transport = transport;
    this.metrics = metrics;
    this.retry = retry;
    this.backoff = backoff;
    this.sleeper = sleeper;
    this.clock = clock;
    this.target = target;
  }

  /** The redacted push URL, for messages. */
  String target() {
    return target;
  }

  /** Sends until a final answer: 2xx, 400 or 413; everything else ends retryable. */
  LokiHttpTransport.Response send(EncodedBody body)
      throws RetryableSinkException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      if (Thread.interrupted()) {
        throw new InterruptedException("push to " + target + " interrupted");
      }
      RetryableSinkException failure;
      try {
        LokiHttpTransport.Response r = transport.send(body);
        int s = r.status();
        metrics.response(s);
        if (s < 300 && s >= 200 || s == 400 || s == 413) {
          if (s < 300) {
            authFailures.set(0);
          }
          return r;
        }
        failure = classify(r);
      } catch (IOException e) {
        metrics.transportError(transportReason(e));
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
      if (attempt >= retry.attempts()) {
        throw failure;
      }
      Duration wait = backoff.delay(attempt);
      if (failure.retryAfter().isPresent()) {
        wait = Backoff.honouring(wait, failure.retryAfter().get(), retry.maxRetryAfter());
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
