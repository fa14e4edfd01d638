package io.sf2loki.daemon.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOSession;
import org.apache.hc.core5.reactor.IOSessionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The health server's bounds on clients, per connection: one past {@link
 * HealthServer.Limits#maxConnections()} is closed as it is accepted, and every other is closed
 * {@link HealthServer.Limits#requestTimeout()} after it was accepted. Every answer ends its
 * connection ({@code Connection: close}), so a connection still open then is a request that never
 * completed (half a request line, a stalled body) or an answer its client does not read. A socket
 * read timeout alone would not do: a client that sends a byte now and then would keep it open.
 */
final class ConnectionGuard implements IOSessionListener {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);

  private final HealthServer.Limits limits;
  private final ScheduledExecutorService deadlines;
  private final Counter overCap;
  private final Counter timedOut;
  private final Map<IOSession, Future<?>> open = new ConcurrentHashMap<>();

  ConnectionGuard(
      HealthServer.Limits limits, ScheduledExecutorService deadlines, MeterRegistry registry) {
    this.limits = limits;
    this.deadlines = deadlines;
    this.overCap = rejected(registry, "too_many_connections");
    this.timedOut = rejected(registry, "timeout");
  }

  private static Counter rejected(MeterRegistry registry, String reason) {
    return Counter.builder("sf2loki_http_requests_rejected")
        .description(
            "Health server connections closed unanswered: over the connection cap, or not"
                + " answered within the request timeout")
        .tag("reason", reason)
        .register(registry);
  }

  /** On the reactor thread, before the connection reads anything. */
  @Override
  public void connected(IOSession session) {
    if (open.size() >= limits.maxConnections()) {
      overCap.increment();
      LOG.debug(
          "health server: {} connections open, closing the one from {}",
          open.size(),
          session.getRemoteAddress());
      session.close(CloseMode.IMMEDIATE);
      return;
    }
    open.put(
        session,
        deadlines.schedule(
            () -> expire(session), limits.requestTimeout().toNanos(), TimeUnit.NANOSECONDS));
  }

  private void expire(IOSession session) {
    if (open.remove(session) != null) {
      timedOut.increment();
      LOG.debug(
          "health server: no answer to {} within {}, closing",
          session.getRemoteAddress(),
          limits.requestTimeout());
      session.close(CloseMode.IMMEDIATE);
    }
  }

  @Override
  public void disconnected(IOSession session) {
    Future<?> deadline = open.remove(session);
    if (deadline != null) {
      deadline.cancel(false);
    }
  }

  @Override
  public void startTls(IOSession session) {}

  @Override
  public void inputReady(IOSession session) {}

  @Override
  public void outputReady(IOSession session) {}

  @Override
  public void timeout(IOSession session) {}

  @Override
  public void exception(IOSession session, Exception ex) {}
}
