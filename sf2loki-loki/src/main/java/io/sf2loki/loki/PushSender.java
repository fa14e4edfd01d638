package io.sf2loki.loki;

import io.sf2loki.spi.RetryableSinkException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes one classified attempt at one push: 2xx, 400 and 413 come back to the caller; 429, 5xx,
 * transport errors, 401, 403, 404 and other statuses surface as {@link RetryableSinkException} with
 * the status and any {@code Retry-After}, for the lane to back off and retry the same batch — the
 * lane is the one retry owner. 401/403/404 also log an ERROR naming the likely fix
 * (misconfiguration must not lose data). Every answer and every attempt without one is counted.
 * Thread-safe.
 */
final class PushSender {

  private static final Logger LOG = LoggerFactory.getLogger(PushSender.class);

  private final LokiHttpTransport transport;
  private final Clock clock;
  private final String target;
  private final LokiMetrics metrics;
  private final AtomicInteger authFailures = new AtomicInteger();

  PushSender(LokiHttpTransport transport, LokiMetrics metrics, Clock clock, String target) {
    this.transport = transport;
    this.metrics = metrics;
    this.clock = clock;
    this.target = target;
  }

  /** The redacted push URL, for messages. */
  String target() {
    return target;
  }

  /** One attempt: the answer when it is final (2xx, 400 or 413); otherwise retryable. */
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
    if (s < 300 && s >= 200 || s == 400 || s == 413) {
      if (s < 300) {
        authFailures.set(0);
      }
      return r;
    }
    throw classify(r);
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
