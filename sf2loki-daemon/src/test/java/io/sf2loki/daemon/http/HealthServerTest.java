package io.sf2loki.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.engine.EngineStatus;
import io.sf2loki.pipeline.LaneStall;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.Source;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HealthServerTest {

  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private final AtomicReference<EngineStatus> status =
      new AtomicReference<>(new EngineStatus.Starting());
  private final AtomicReference<Optional<Duration>> staleHeartbeat =
      new AtomicReference<>(Optional.empty());
  private final HttpClient http = HttpClient.newHttpClient();
  private HealthServer server;

  @BeforeEach
  void start() throws Exception {
    Readiness readiness =
        new Readiness(status::get, Duration.ofMinutes(15), Clock.fixed(NOW, ZoneOffset.UTC));
    server =
        HealthServer.start(
            "127.0.0.1",
            0,
            new Liveness(staleHeartbeat::get),
            readiness,
            () -> "sf2loki_leader 1.0\n",
            new SimpleMeterRegistry());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void livenessIsOkWhileTheEngineBeats() throws Exception {
    status.set(new EngineStatus.Standby()); // leadership never matters to liveness
    assertThat(get("/healthz").statusCode()).isEqualTo(200);
    assertThat(get("/healthz").body()).isEqualTo("ok\n");
  }

  @Test
  void staleEngineHeartbeatIsUnhealthyWithItsAge() throws Exception {
    staleHeartbeat.set(Optional.of(Duration.ofSeconds(312).plusMillis(400)));
    HttpResponse<String> r = get("/healthz");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).isEqualTo("unhealthy: engine heartbeat stale for 312s\n");
  }

  @Test
  void startingIsNotReady() throws Exception {
    HttpResponse<String> r = get("/readyz");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).isEqualTo("not ready\n");
  }

  @Test
  void standbyIsUnreadyWithReasonStandby() throws Exception {
    status.set(new EngineStatus.Standby());
    assertThat(get("/readyz").statusCode()).isEqualTo(503);
    assertThat(get("/readyz").body()).isEqualTo("standby\n");
  }

  @Test
  void backingOffFromAFailureIsUnreadyWithTheFailuresReason() throws Exception {
    status.set(
        new EngineStatus.BackingOff(
            FailureClass.transientFailure("store_unavailable", "s3://b/state.json"),
            2,
            Duration.ofSeconds(4)));
    HttpResponse<String> r = get("/readyz");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).isEqualTo("store_unavailable\n");
  }

  @Test
  void aStandbyThatGaveItsLeaseUpSaysWhy() throws Exception {
    status.set(
        new EngineStatus.Standby(
            Optional.of("renewal could not complete 5s (io_timeout) before the lease expires")));
    assertThat(get("/readyz").statusCode()).isEqualTo(503);
    assertThat(get("/readyz").body())
        .isEqualTo(
            "standby: renewal could not complete 5s (io_timeout) before the lease expires\n");
  }

  @Test
  void healthyLeaderIsReady() throws Exception {
    status.set(new EngineStatus.Leading(3, Optional.empty()));
    assertThat(get("/readyz").statusCode()).isEqualTo(200);
  }

  @Test
  void leaderWhosePushesFailedLongerThanTheLimitIsDegraded() throws Exception {
    status.set(new EngineStatus.Leading(3, Optional.of(NOW.minus(Duration.ofMinutes(17)))));
    HttpResponse<String> r = get("/readyz");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).isEqualTo("degraded: loki pushes failing for 17m\n");
  }

  @Test
  void leaderWhoseDailyByteBudgetIsSpentIsDegradedUntilTheDateItResumes() throws Exception {
    status.set(
        new EngineStatus.Leading(
            3,
            Optional.of(NOW.minus(Duration.ofMinutes(17))),
            Optional.empty(),
            Optional.of(java.time.LocalDate.of(2026, 12, 3))));
    HttpResponse<String> r = get("/readyz");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body())
        .isEqualTo("degraded: daily byte budget exhausted, pushes paused until 2026-12-03\n");
    assertThat(get("/healthz").statusCode()).isEqualTo(200);
  }

  @Test
  void briefPushFailuresKeepTheLeaderReady() throws Exception {
    status.set(new EngineStatus.Leading(3, Optional.of(NOW.minus(Duration.ofMinutes(2)))));
    assertThat(get("/readyz").statusCode()).isEqualTo(200);
  }

  @Test
  void leaderWhoseTermEndedUnderItIsUnreadyWithReasonFencedUntilItStandsBy() throws Exception {
    status.set(new EngineStatus.Fenced(3, "a newer leader owns the state"));
    HttpResponse<String> r = get("/readyz");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body())
        .isEqualTo("fenced: epoch 3 ended, standing by: a newer leader owns the state\n");
  }

  @Test
  void leaderWithAStalledLaneIsDegraded() throws Exception {
    status.set(
        new EngineStatus.Leading(
            3,
            Optional.empty(),
            Optional.of(new LaneStall(Source.Lane.BULK, Duration.ofMinutes(6), 100))));
    HttpResponse<String> r = get("/readyz");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body())
        .isEqualTo(
            "degraded: bulk lane stalled for 6m (100 entries queued, nothing taken, pushed or"
                + " committed)\n");
  }

  @Test
  void metricsServePrometheusText() throws Exception {
    HttpResponse<String> r = get("/metrics");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
    assertThat(r.body()).contains("sf2loki_leader 1.0");
  }

  @Test
  void unknownPathIsNotFound() throws Exception {
    assertThat(get("/nope").statusCode()).isEqualTo(404);
  }

  /** The answer to {@code request} as sent on the wire, read until the server closes. */
  private String exchange(String request) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout((int) TestTiming.seconds(5).toMillis());
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void answersCarryTheirLengthAndCloseTheConnection() throws Exception {
    String answer = exchange("GET /healthz HTTP/1.1\r\nHost: probe\r\n\r\n");
    assertThat(answer)
        .startsWith("HTTP/1.1 200 OK\r\n")
        .containsIgnoringCase("\r\nContent-Length: 3\r\n")
        .containsIgnoringCase("\r\nContent-Type: text/plain\r\n")
        .containsIgnoringCase("\r\nConnection: close\r\n")
        .endsWith("\r\n\r\nok\n");
  }

  @Test
  void headAnswersAsGetWithoutTheBody() throws Exception {
    staleHeartbeat.set(Optional.of(Duration.ofSeconds(312)));
    String answer = exchange("HEAD /healthz HTTP/1.1\r\nHost: probe\r\n\r\n");
    assertThat(answer)
        .startsWith("HTTP/1.1 503 ")
        .containsIgnoringCase("\r\nConnection: close\r\n")
        .endsWith("\r\n\r\n");
  }

  @Test
  void otherMethodsAreNotAllowed() throws Exception {
    String answer =
        exchange("POST /healthz HTTP/1.1\r\nHost: probe\r\nContent-Length: 2\r\n\r\nab");
    assertThat(answer)
        .startsWith("HTTP/1.1 405 ")
        .containsIgnoringCase("\r\nConnection: close\r\n")
        .endsWith("method not allowed\n");
  }

  @Test
  void aTakenPortFailsTheStartWithTheSystemsReason() {
    assertThatThrownBy(
            () ->
                HealthServer.start(
                    "127.0.0.1",
                    server.port(),
                    new Liveness(staleHeartbeat::get),
                    () -> new Answer(200, "ready"),
                    () -> "",
                    new SimpleMeterRegistry()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Address already in use");
  }
}
