package io.sf2loki.daemon.http;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.http.nio.AsyncRequestConsumer;
import org.apache.hc.core5.http.nio.AsyncServerRequestHandler;
import org.apache.hc.core5.http.nio.entity.DiscardingEntityConsumer;
import org.apache.hc.core5.http.nio.support.AsyncResponseBuilder;
import org.apache.hc.core5.http.nio.support.BasicRequestConsumer;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The health server's answers: {@code GET} and {@code HEAD} of {@code /healthz}, {@code /readyz}
 * and {@code /metrics}; 405 for another method, 404 for another path. A request body is read and
 * discarded. {@code HEAD} answers as {@code GET} without the body.
 */
final class HealthRoutes implements AsyncServerRequestHandler<Message<HttpRequest, Void>> {

  private static final Logger LOG = LoggerFactory.getLogger(HealthRoutes.class);
  private static final ContentType TEXT = ContentType.create("text/plain");
  private static final ContentType PROMETHEUS =
      ContentType.parse("text/plain; version=0.0.4; charset=utf-8");

  private final Probe liveness;
  private final Probe readiness;
  private final Supplier<String> prometheusText;
  private final Executor scrapes;

  /**
   * @param scrapes runs {@code prometheusText}, off the reactor thread that answers the probes
   */
  HealthRoutes(Probe liveness, Probe readiness, Supplier<String> prometheusText, Executor scrapes) {
    this.liveness = liveness;
    this.readiness = readiness;
    this.prometheusText = prometheusText;
    this.scrapes = scrapes;
  }

  @Override
  public AsyncRequestConsumer<Message<HttpRequest, Void>> prepare(
      HttpRequest request, EntityDetails entityDetails, HttpContext context) {
    return new BasicRequestConsumer<>(DiscardingEntityConsumer::new);
  }

  @Override
  public void handle(
      Message<HttpRequest, Void> message, ResponseTrigger trigger, HttpContext context)
      throws HttpException, IOException {
    HttpRequest request = message.getHead();
    String method = request.getMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      send(trigger, context, 405, "method not allowed", TEXT);
      return;
    }
    switch (path(request)) {
      case "/healthz" -> send(trigger, context, liveness.answer());
      case "/readyz" -> send(trigger, context, readiness.answer());
      case "/metrics" -> scrape(trigger, context);
      default -> send(trigger, context, 404, "not found", TEXT);
    }
  }

  private void scrape(ResponseTrigger trigger, HttpContext context)
      throws HttpException, IOException {
    try {
      scrapes.execute(() -> answerScrape(trigger, context));
    } catch (RejectedExecutionException e) { // the server is closing
      send(trigger, context, 503, "shutting down", TEXT);
    }
  }

  private void answerScrape(ResponseTrigger trigger, HttpContext context) {
    try {
      String text;
      try {
        text = prometheusText.get();
      } catch (RuntimeException e) {
        LOG.warn("/metrics failed: {}", e.toString());
        send(trigger, context, 500, "metrics unavailable: " + e, TEXT);
        return;
      }
      send(trigger, context, 200, text, PROMETHEUS);
    } catch (HttpException | IOException | RuntimeException e) {
      // the connection is gone: closed by its client or past the request timeout
      LOG.debug("/metrics answer not sent: {}", e.toString());
    }
  }

  /** The decoded path, of an origin-form or an absolute-form target; "" (404) if malformed. */
  private static String path(HttpRequest request) {
    try {
      String path = request.getUri().getPath();
      return path == null ? "" : path;
    } catch (URISyntaxException e) {
      return "";
    }
  }

  private static void send(ResponseTrigger trigger, HttpContext context, Answer answer)
      throws HttpException, IOException {
    send(trigger, context, answer.status(), answer.body(), TEXT);
  }

  private static void send(
      ResponseTrigger trigger, HttpContext context, int status, String body, ContentType type)
      throws HttpException, IOException {
    byte[] bytes = (body.endsWith("\n") ? body : body + "\n").getBytes(StandardCharsets.UTF_8);
    trigger.submitResponse(
        AsyncResponseBuilder.create(status)
            .setHeader(HttpHeaders.CONNECTION, "close")
            .setEntity(bytes, type)
            .build(),
        context);
  }
}
