package io.sf2loki.daemon.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One small HTTP server for {@code /healthz} (liveness, see {@link Liveness}, {@link
 * OrgsLiveness}), {@code /readyz} (see {@link Readiness}, {@link OrgsReadiness}) and {@code
 * /metrics} (Prometheus text). Answers carry {@code Content-Length} and {@code Connection: close}.
 */
public final class HealthServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(HealthServer.class);

  private final HttpServer server;
  private final ExecutorService executor;

  private HealthServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Binds and starts serving.
   *
   * @param port 0 picks a free port
   * @throws IOException when the address cannot be bound
   */
  public static HealthServer start(
      String host, int port, Probe liveness, Probe readiness, Supplier<String> prometheusText)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
    ExecutorService executor =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "sf2loki-http");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.createContext(
        "/",
        exchange -> {
          try (exchange) {
            route(exchange, liveness, readiness, prometheusText);
          } catch (IOException | RuntimeException e) {
            log.debug("health request failed: {}", e.toString());
          }
        });
    server.start();
    return new HealthServer(server, executor);
  }

  private static void route(
      HttpExchange exchange, Probe liveness, Probe readiness, Supplier<String> prometheusText)
      throws IOException {
    String path = exchange.getRequestURI().getPath();
    if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
      send(exchange, 405, "method not allowed", "text/plain");
      return;
    }
    switch (path) {
      case "/healthz" -> send(exchange, liveness.answer());
      case "/readyz" -> send(exchange, readiness.answer());
      case "/metrics" ->
          send(exchange, 200, prometheusText.get(), "text/plain; version=0.0.4; charset=utf-8");
      default -> send(exchange, 404, "not found", "text/plain");
    }
  }

  private static void send(HttpExchange exchange, Answer answer) throws IOException {
    send(exchange, answer.status(), answer.body(), "text/plain");
  }

  private static void send(HttpExchange exchange, int status, String body, String contentType)
      throws IOException {
    byte[] bytes = (body.endsWith("\n") ? body : body + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.getResponseHeaders().set("Connection", "close");
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** The bound port (useful when started on port 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
