package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.otlp.FakeOtlpReceiver;
import io.sf2loki.testkit.otlp.OtlpFault;
import io.sf2loki.testkit.otlp.ReceivedPoint;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code service.metrics.otlp}: the daemon's registry pushed over OTLP/HTTP to the testkit's
 * receiver, next to the {@code /metrics} scrape, every step (1s here).
 */
class OtlpPushTest {

  private static final Map<String, String> POD = Map.of("HOSTNAME", "sf2loki-7c9d4-abcde");

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakeLoki loki;
  private FakeOtlpReceiver otlp;

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    loki = FakeLoki.start();
    otlp = FakeOtlpReceiver.start();
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    salesforce.addLogFile(
        "Login", "Hourly", hour.minus(2, ChronoUnit.HOURS), hour.minusSeconds(3600), 20);
  }

  @AfterEach
  void stop() {
    otlp.close();
    loki.close();
    salesforce.close();
  }

  private String config(String otlpExtra) {
    String push =
        """
        service.metrics.otlp {
          enabled = true
          url = "%s"
          step = 1s
          timeout = 1s
          %s
        }
        """
            .formatted(otlp.metricsUrl(), otlpExtra);
    return OrgRunConfig.hocon(salesforce, loki, dir.resolve("state.json"), push);
  }

  @Test
  void theMetricsArriveWithTheServiceAndTheReplicaAsResourceAttributes() throws Exception {
    String extra =
        """
        headers { Authorization = "Bearer otlp-token" }
        resource_attributes { "deployment.environment" = test }
        """;
    try (ComposedRun run = ComposedRun.start(config(extra), POD)) {
      await()
          .atMost(TestTiming.seconds(30))
          .until(() -> otlp.points("sf2loki_leader").stream().anyMatch(p -> p.value() == 1.0));
      ReceivedPoint leader = otlp.points("sf2loki_leader").get(0);
      assertThat(leader.type()).isEqualTo("gauge");
      assertThat(leader.resource())
          .containsEntry("service.name", "sf2loki")
          .containsEntry("service.instance.id", "sf2loki-7c9d4-abcde")
          .containsEntry("deployment.environment", "test")
          .containsKey("service.version");
      assertThat(otlp.requestHeaders().get(0))
          .containsEntry("authorization", "Bearer otlp-token")
          .containsEntry("content-encoding", "gzip");
      await()
          .atMost(TestTiming.seconds(30))
          .until(() -> otlp.metricNames().contains("sf2loki_events_ingested"));
      // the scrape keeps working next to the push
      assertThat(run.get("/metrics").body()).contains("sf2loki_leader 1.0");
    }
  }

  @Test
  void failingPushesAreCountedAndLoggedOncePerStreakAndLeaveIngestionAndReadinessAlone()
      throws Exception {
    otlp.inject(OtlpFault.status(503, 3));
    try (CapturedLogs logs = new CapturedLogs();
        ComposedRun run = ComposedRun.start(config(""), POD)) {
      await()
          .atMost(TestTiming.seconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                assertThat(run.get("/readyz").statusCode()).isIn(200, 503);
                return otlp.answers().contains(200);
              });
      assertThat(otlp.answers()).startsWith(503, 503, 503);
      assertThat(run.get("/readyz").body()).isEqualTo("ready\n");
      await().atMost(TestTiming.seconds(30)).until(() -> loki.lines().size() >= 20);
      assertThat(run.get("/metrics").body())
          .contains("sf2loki_otlp_push_failures_total 3.0")
          .containsPattern("sf2loki_otlp_last_push_success_timestamp_seconds [1-9]");

      List<String> warnings =
          logs.events().stream()
              .filter(e -> e.getLevel() == Level.WARN)
              .map(e -> e.getFormattedMessage())
              .filter(m -> m.contains("OTLP"))
              .toList();
      assertThat(warnings)
          .singleElement()
          .asString()
          .startsWith("OTLP metrics push to " + otlp.metricsUrl() + " failed: ")
          .contains("503");
      assertThat(logs.messages())
          .contains(
              "OTLP metrics push to "
                  + otlp.metricsUrl()
                  + " succeeded again after 3 failed pushes");
    }
  }

  @Test
  void anUnreachableReceiverIsCountedLikeARefusingOne() throws Exception {
    String hocon = config("").replace(otlp.metricsUrl().toString(), unusedPortUrl());
    try (ComposedRun run = ComposedRun.start(hocon, POD)) {
      await()
          .atMost(TestTiming.seconds(30))
          .until(() -> run.get("/metrics").body().contains("sf2loki_otlp_push_failures_total 2.0"));
      assertThat(run.get("/readyz").body()).isEqualTo("ready\n");
      assertThat(run.get("/metrics").body())
          .contains("sf2loki_otlp_last_push_success_timestamp_seconds 0.0");
    }
  }

  private static String unusedPortUrl() throws Exception {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return "http://127.0.0.1:" + socket.getLocalPort() + "/v1/metrics";
    }
  }
}
