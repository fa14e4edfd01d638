package io.sf2loki.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The probes keep answering whatever other clients do (issue 35): clients that send half a request
 * and stop, clients that trickle, and more connections than the server takes. Each is closed, and
 * counted in {@code sf2loki_http_requests_rejected_total{reason}}.
 */
class HealthServerBadClientsTest {

  private static final String HALF_REQUEST = "GET /healthz HTTP/1.1\r\nHo";

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<Socket> clients = new ArrayList<>();
  private HealthServer server;

  private void start(HealthServer.Limits limits) throws IOException {
    server =
        HealthServer.start(
            "127.0.0.1",
            0,
            () -> new Answer(200, "ok"),
            () -> new Answer(200, "ready"),
            () -> "sf2loki_leader 1.0\n",
            registry,
            limits);
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket client : clients) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** A client that connects and sends {@code bytes}, then nothing. */
  private Socket sendAndStall(String bytes) throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    clients.add(socket);
    socket.getOutputStream().write(bytes.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    return socket;
  }

  /** A well-behaved client's GET, which must be answered within a couple of seconds. */
  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(TestTiming.seconds(2))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Whether the server closed {@code socket} (end of stream or a reset) within {@code bound}. */
  private static boolean closedByServerWithin(Socket socket, Duration bound) throws IOException {
    socket.setSoTimeout((int) bound.toMillis());
    try {
      return socket.getInputStream().read() == -1;
    } catch (SocketException reset) {
      return true;
    } catch (java.net.SocketTimeoutException stillOpen) {
      return false;
    }
  }

  private double rejected(String reason) {
    return registry.get("sf2loki_http_requests_rejected").tag("reason", reason).counter().count();
  }

  @Test
  void manyClientsStalledInTheirRequestLineDoNotKeepTheProbesFromAnswering() throws Exception {
    start(new HealthServer.Limits(Duration.ofMinutes(5), 64)); // the stalled ones stay open
    for (int i = 0; i < 50; i++) {
      sendAndStall(HALF_REQUEST);
    }

    assertThat(get("/healthz").statusCode()).isEqualTo(200);
    assertThat(get("/readyz").body()).isEqualTo("ready\n");
    assertThat(get("/metrics").body()).contains("sf2loki_leader 1.0");
    assertThat(rejected("timeout")).isZero();
    assertThat(rejected("too_many_connections")).isZero();
  }

  @Test
  void aClientThatStallsInItsRequestIsClosedAfterTheRequestTimeout() throws Exception {
    start(new HealthServer.Limits(Duration.ofMillis(300), 64));
    Socket stalled = sendAndStall(HALF_REQUEST);

    assertThat(closedByServerWithin(stalled, TestTiming.seconds(5))).isTrue();
    await().atMost(TestTiming.seconds(5)).until(() -> rejected("timeout") == 1);
    assertThat(get("/healthz").statusCode()).isEqualTo(200);
  }

  @Test
  void aClientThatTricklesItsRequestIsClosedAfterTheRequestTimeoutToo() throws Exception {
    start(new HealthServer.Limits(Duration.ofMillis(500), 64));
    Socket trickling = sendAndStall("G");
    ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
    try {
      // a byte every 50 ms: a read timeout alone would never fire
      trickle.scheduleAtFixedRate(
          () -> {
            try {
              trickling.getOutputStream().write('E');
            } catch (IOException closed) {
              // the server closed it: what the test waits for
            }
          },
          50,
          50,
          TimeUnit.MILLISECONDS);

      assertThat(closedByServerWithin(trickling, TestTiming.seconds(5))).isTrue();
      assertThat(rejected("timeout")).isEqualTo(1);
    } finally {
      trickle.shutdownNow();
    }
  }

  @Test
  void connectionsOverTheCapAreClosedAtOnceAndCounted() throws Exception {
    start(new HealthServer.Limits(Duration.ofMinutes(5), 4));
    for (int i = 0; i < 4; i++) {
      sendAndStall(HALF_REQUEST);
    }
    Socket fifth = sendAndStall(HALF_REQUEST);

    assertThat(closedByServerWithin(fifth, TestTiming.seconds(2))).isTrue();
    await().atMost(TestTiming.seconds(5)).until(() -> rejected("too_many_connections") == 1);

    for (Socket client : clients) {
      client.close();
    }
    // once they are gone the server takes connections again
    await()
        .atMost(TestTiming.seconds(10))
        .ignoreExceptions()
        .until(() -> get("/healthz").statusCode() == 200);
    assertThat(rejected("timeout")).isZero();
  }
}
