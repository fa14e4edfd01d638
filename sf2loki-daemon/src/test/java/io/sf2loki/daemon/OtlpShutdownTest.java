package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.OtlpMetricsConfig;
import io.sf2loki.daemon.ha.DaemonProcess;
import io.sf2loki.daemon.metrics.MetricsPush;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.otlp.FakeOtlpReceiver;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The final OTLP push at shutdown gets what is left of {@code service.shutdown_grace}, so a
 * receiver that accepts connections and never answers does not keep the process from exiting (issue
 * 35).
 */
class OtlpShutdownTest {

  @TempDir Path dir;
  private SilentReceiver silent;

  @BeforeEach
  void start() throws IOException {
    silent = new SilentReceiver();
  }

  @AfterEach
  void stop() throws IOException {
    silent.close();
  }

  @Test
  void aReceiverThatNeverAnswersDoesNotStretchTheShutdownPastTheGrace() throws Exception {
    try (FakeSalesforce salesforce =
            FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
        FakeLoki loki = FakeLoki.start()) {
      Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
      salesforce.addLogFile(
          "Login", "Hourly", hour.minus(2, ChronoUnit.HOURS), hour.minusSeconds(3600), 20);
      int port = freePort();
      Duration grace = TestTiming.seconds(5); // OrgRunConfig's service.shutdown_grace
      // a push waits for its answer as long as the timeout: far longer than the grace
      Duration timeout = grace.multipliedBy(6);
      String otlp =
          """
          service { http_host = "127.0.0.1", http_port = %d }
          service.metrics.otlp { enabled = true, url = "%s", step = %dms, timeout = %dms }
          """
              .formatted(port, silent.url(), timeout.toMillis(), timeout.toMillis());
      Path config = dir.resolve("daemon.conf");
      Files.writeString(
          config, OrgRunConfig.hocon(salesforce, loki, dir.resolve("state.json"), otlp));

      try (DaemonProcess daemon =
          DaemonProcess.start("daemon", config, port, dir.resolve("daemon.log"))) {
        await()
            .atMost(TestTiming.seconds(60))
            .until(() -> daemon.readyz().ready() || !daemon.isAlive());
        await().atMost(TestTiming.seconds(30)).until(() -> loki.lines().size() >= 20);

        long signalled = System.nanoTime();
        daemon.sigterm();
        int code = daemon.awaitExit(grace.plus(TestTiming.seconds(3)));
        Duration took = Duration.ofNanos(System.nanoTime() - signalled);

        String log = daemon.log();
        assertThat(code).as("exit code %s after %s; log:%n%s", code, took, log).isZero();
        // left unanswered at the end of the grace, or skipped if the drain had spent it
        assertThat(log)
            .containsAnyOf(
                "the final OTLP metrics push to " + silent.url() + " did not finish",
                "shutdown grace spent: skipping the final OTLP metrics push to " + silent.url());
        assertThat(silent.accepted()).as("the final push reached the receiver").isPositive();
      }
    }
  }

  @Test
  void aFinalPushThatGetsNoAnswerIsLeftWhenItsBudgetIsSpent() throws Exception {
    MetricsPush push = push(silent.url());
    push.registry().counter("sf2loki_test").increment();

    try (CapturedLogs logs = new CapturedLogs()) {
      long started = System.nanoTime();
      push.close(Duration.ofMillis(300));
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      assertThat(took).isLessThan(TestTiming.seconds(3));
      await().atMost(TestTiming.seconds(5)).until(() -> silent.accepted() == 1);
      assertThat(logs.events())
          .filteredOn(e -> e.getLevel() == Level.WARN)
          .singleElement()
          .satisfies(
              e ->
                  assertThat(e.getFormattedMessage())
                      .isEqualTo(
                          "the final OTLP metrics push to "
                              + silent.url()
                              + " did not finish within the 300ms left of the shutdown grace;"
                              + " not waiting for it"));
    }
  }

  @Test
  void withTheGraceSpentTheFinalPushIsSkippedWithAWarning() throws Exception {
    try (FakeOtlpReceiver receiver = FakeOtlpReceiver.start();
        CapturedLogs logs = new CapturedLogs()) {
      MetricsPush push = push(receiver.metricsUrl());
      push.registry().counter("sf2loki_test").increment();

      push.close(Duration.ofMillis(-20));

      assertThat(receiver.metricNames()).isEmpty();
      assertThat(logs.messages())
          .contains(
              "shutdown grace spent: skipping the final OTLP metrics push to "
                  + receiver.metricsUrl()
                  + " (what changed since the last push is not pushed)");
    }
  }

  @Test
  void theGraceLeftIsMeasuredFromTheStopRequestOrIsWholeWithoutOne() {
    AtomicLong now = new AtomicLong(1_000);
    Duration grace = Duration.ofSeconds(5);
    OptionalLong stopped = OptionalLong.of(now.get());
    now.addAndGet(Duration.ofSeconds(3).toNanos()); // the drain took 3s

    assertThat(DaemonService.graceLeft(grace, stopped, now::get)).isEqualTo(Duration.ofSeconds(2));
    assertThat(DaemonService.graceLeft(grace, OptionalLong.empty(), now::get)).isEqualTo(grace);
    now.addAndGet(Duration.ofSeconds(4).toNanos());
    assertThat(DaemonService.graceLeft(grace, stopped, now::get)).isNegative();
  }

  /**
   * An OTLP push to {@code url} every minute (none before the close here), its timeout a minute.
   */
  private static MetricsPush push(URI url) {
    Duration minute = Duration.ofMinutes(1);
    return MetricsPush.start(
        new OtlpMetricsConfig(true, url, minute, minute, Map.of(), Map.of()),
        new SimpleMeterRegistry(),
        "test-replica",
        "test",
        Clock.systemUTC(),
        new NamedThreadFactory("test-otlp"));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** A receiver that accepts every connection and never reads or answers: a black hole. */
  private static final class SilentReceiver implements AutoCloseable {

    private final ServerSocket server = new ServerSocket(0);
    private final List<Socket> held = new CopyOnWriteArrayList<>();

    SilentReceiver() throws IOException {
      Thread acceptor =
          new NamedThreadFactory("silent-otlp")
              .newThread(
                  () -> {
                    while (!server.isClosed()) {
                      try {
                        held.add(server.accept());
                      } catch (IOException closed) {
                        return;
                      }
                    }
                  });
      acceptor.start();
    }

    URI url() {
      return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1/metrics");
    }

    int accepted() {
      return held.size();
    }

    @Override
    public void close() throws IOException {
      server.close();
      for (Socket socket : held) {
        socket.close();
      }
    }
  }
}
