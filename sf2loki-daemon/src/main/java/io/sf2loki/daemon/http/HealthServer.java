package io.sf2loki.daemon.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.NamedThreadFactory;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Supplier;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.bootstrap.AsyncServerBootstrap;
import org.apache.hc.core5.http.impl.bootstrap.HttpAsyncServer;
import org.apache.hc.core5.http.nio.support.BasicServerExchangeHandler;
import org.apache.hc.core5.http.protocol.HttpProcessorBuilder;
import org.apache.hc.core5.http.protocol.ResponseConnControl;
import org.apache.hc.core5.http.protocol.ResponseContent;
import org.apache.hc.core5.http.protocol.ResponseDate;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.reactor.ListenerEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One small HTTP server for {@code /healthz} (liveness, see {@link Liveness}, {@link
 * OrgsLiveness}), {@code /readyz} (see {@link Readiness}, {@link OrgsReadiness}) and {@code
 * /metrics} (Prometheus text). Answers carry {@code Content-Length} and {@code Connection: close}.
 *
 * <p>It must keep answering the liveness probe whatever other clients do, or a supervisor restarts
 * a healthy process. So it is non-blocking (HttpCore 5's I/O reactor, one thread): a client that
 * sends half a request and stops holds no thread, only its connection, and every connection is
 * closed 5 s after it was accepted, answered or not; at most 64 are open at once, and one more is
 * closed at once. Both closes are counted in {@code sf2loki_http_requests_rejected_total{reason}}.
 * The probes are answered on the reactor thread (they read state); {@code /metrics} on a thread of
 * its own, so a slow scrape never delays them.
 */
public final class HealthServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(HealthServer.class);

  /**
   * The bounds on clients.
   *
   * @param requestTimeout how long a connection may stay open after it was accepted
   * @param maxConnections how many connections may be open at once
   */
  record Limits(Duration requestTimeout, int maxConnections) {

    /** 5 s per connection (a probe answers in milliseconds), 64 connections. */
    static final Limits DEFAULT = new Limits(Duration.ofSeconds(5), 64);

    Limits {
      if (requestTimeout.isNegative() || requestTimeout.isZero()) {
        throw new IllegalArgumentException("requestTimeout must be positive: " + requestTimeout);
      }
      if (maxConnections < 1) {
        throw new IllegalArgumentException("maxConnections must be at least 1: " + maxConnections);
      }
    }
  }

  /** A request line or header line longer than this is refused (400), bounding what one holds. */
  private static final int MAX_LINE = 8 * 1024;

  private static final int MAX_HEADERS = 64;

  private final HttpAsyncServer server;
  private final ListenerEndpoint endpoint;
  private final ScheduledThreadPoolExecutor deadlines;
  private final ExecutorService scrapes;

  private HealthServer(
      HttpAsyncServer server,
      ListenerEndpoint endpoint,
      ScheduledThreadPoolExecutor deadlines,
      ExecutorService scrapes) {
    this.server = server;
    this.endpoint = endpoint;
    this.deadlines = deadlines;
    this.scrapes = scrapes;
  }

  /**
   * Binds and starts serving.
   *
   * @param port 0 picks a free port
   * @param registry where {@code sf2loki_http_requests_rejected_total} is registered
   * @throws IOException when the address cannot be bound
   */
  public static HealthServer start(
      String host,
      int port,
      Probe liveness,
      Probe readiness,
      Supplier<String> prometheusText,
      MeterRegistry registry)
      throws IOException {
    return start(host, port, liveness, readiness, prometheusText, registry, Limits.DEFAULT);
  }

  static HealthServer start(
      String host,
      int port,
      Probe liveness,
      Probe readiness,
      Supplier<String> prometheusText,
      MeterRegistry registry,
      Limits limits)
      throws IOException {
    Objects.requireNonNull(limits, "limits");
    ScheduledThreadPoolExecutor deadlines =
        new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("sf2loki-http-deadline"));
    deadlines.setRemoveOnCancelPolicy(true); // one task per connection, most of them cancelled
    ExecutorService scrapes =
        Executors.newSingleThreadExecutor(new NamedThreadFactory("sf2loki-http-metrics"));
    HealthRoutes routes = new HealthRoutes(liveness, readiness, prometheusText, scrapes);
    HttpAsyncServer server =
        AsyncServerBootstrap.bootstrap()
            .setIOReactorConfig(
                IOReactorConfig.custom()
                    .setIoThreadCount(1)
                    // a restart must rebind the port while its old connections are in TIME_WAIT
                    .setSoReuseAddress(true)
                    .build())
            .setHttp1Config(
                Http1Config.custom()
                    .setMaxLineLength(MAX_LINE)
                    .setMaxHeaderCount(MAX_HEADERS)
                    .build())
            // no Server header, and no Host check: answers as plain as the probes need
            .setHttpProcessor(
                HttpProcessorBuilder.create()
                    .addAll(
                        ResponseDate.INSTANCE,
                        ResponseContent.INSTANCE,
                        ResponseConnControl.INSTANCE)
                    .build())
            .setIOSessionListener(new ConnectionGuard(limits, deadlines, registry))
            .setExceptionCallback(e -> log.debug("health server: {}", e.toString()))
            // every request to the routes, whatever its Host (register() would answer 421 to
            // any but this machine's name)
            .setRequestRouter((request, context) -> () -> new BasicServerExchangeHandler<>(routes))
            .create();
    server.start();
    try {
      ListenerEndpoint endpoint =
          server.listen(new InetSocketAddress(host, port), URIScheme.HTTP).get();
      return new HealthServer(server, endpoint, deadlines, scrapes);
    } catch (ExecutionException e) {
      shutDown(server, deadlines, scrapes);
      if (e.getCause() instanceof IOException io) {
        throw io; // "Address already in use", as the daemon reports it
      }
      throw new IOException("cannot bind " + host + ":" + port + ": " + e.getCause(), e);
    } catch (InterruptedException e) {
      shutDown(server, deadlines, scrapes);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while binding " + host + ":" + port);
    }
  }

  /** The bound port (useful when started on port 0). */
  public int port() {
    return ((InetSocketAddress) endpoint.getAddress()).getPort();
  }

  @Override
  public void close() {
    shutDown(server, deadlines, scrapes);
  }

  private static void shutDown(
      HttpAsyncServer server, ScheduledThreadPoolExecutor deadlines, ExecutorService scrapes) {
    server.close(CloseMode.IMMEDIATE);
    deadlines.shutdownNow();
    scrapes.shutdownNow();
  }
}
