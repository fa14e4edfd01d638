package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.daemon.ops.PromTool;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import io.sf2loki.testkit.tools.ToolRun;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promtool check metrics} on a real {@code /metrics} scrape of the composed daemon (issue
 * 21): the lint Prometheus' users run on an exporter finds nothing in our names, types and help.
 * One run with every source, a Loki 429 and the limits poller: counters, gauges, histograms with
 * their {@code _max}, the info metric, tagged and untagged meters of every module.
 */
class PromtoolCheckMetricsTest {

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakeLoki loki;

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    loki = FakeLoki.start();
  }

  @AfterEach
  void stop() {
    loki.close();
    salesforce.close();
  }

  @Test
  void aScrapeOfTheDaemonRunningAllFourSourcesPassesPromtoolCheckMetrics() throws Exception {
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    salesforce.addLogFile(
        new LogFileSpec(
            "0ATD00000000001AAA",
            "Logout",
            "Hourly",
            hour.minus(3, ChronoUnit.HOURS),
            hour.minusSeconds(7200),
            1,
            50,
            1,
            false));
    salesforce.apexLogs().add(Instant.now().minusSeconds(600), "dev@example.com", "Success", "b");
    salesforce.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    salesforce.eventObjects().add("SetupAuditTrail", Instant.now().minusSeconds(900));
    loki.addFault(io.sf2loki.testkit.loki.Fault.status(429, 1));
    try (FakePubSub pubsub =
        FakePubSub.builder().tokens(salesforce::isValidToken).standardTopics().start()) {
      pubsub.publish(FakePubSub.LOGIN, Map.of("Username", "a@example.com", "EventDate", 1L));
      ToolRun lint = PromTool.checkMetrics(scrapeOfAllFourSources(pubsub));

      assertThat(lint.succeeded()).as(lint.describe()).isTrue();
      assertThat(lint.stdout() + lint.stderr()).as(lint.describe()).isBlank();
    }
  }

  private String scrapeOfAllFourSources(FakePubSub pubsub) throws Exception {
    String hocon =
        """
        salesforce { auth_mode = client_credentials, login_url = "%s", client_id = cid, client_secret = secret }
        sink.loki {
          url = "%s"
          batch { flush_interval = 100ms, max_entries = 100 }
          retry { lane_min_backoff = 10ms, lane_max_backoff = 100ms }
        }
        state.file.path = "%s"
        service.shutdown_grace = %dms
        sources.eventlogfile { enabled = true, event_types = [Logout], poll_interval = 1s, lookback = 12h }
        sources.apexlog { enabled = true, poll_interval = 1s, lookback = 1h }
        sources.eventlog_objects {
          enabled = true
          objects = [{name = SetupAuditTrail, settle_window = 0, poll_interval = 1s, lookback = 1h}]
        }
        sources.pubsub {
          enabled = true, endpoint = "%s", plaintext = true, topics = ["/event/LoginEventStream"]
          replay_preset = EARLIEST
        }
        """
            .formatted(
                salesforce.baseUrl(),
                loki.baseUri(),
                dir.resolve("state.json"),
                TestTiming.seconds(5).toMillis(),
                pubsub.target());
    try (ComposedRun run = ComposedRun.start(hocon)) {
      // counters, gauges, a histogram with its _max, an info metric, tagged and untagged meters
      run.awaitExposed(
          Set.of(
              "sf2loki_build_info",
              "sf2loki_leader",
              "sf2loki_events_ingested_total",
              "sf2loki_ingest_lag_seconds",
              "sf2loki_ingest_lag_seconds_max",
              "sf2loki_loki_push_duration_seconds",
              "sf2loki_loki_responses_total",
              "sf2loki_apexlog_logs_ingested_total",
              "sf2loki_eventlogfile_files_processed_total",
              "sf2loki_salesforce_limit_max",
              "sf2loki_pubsub_events_received_total",
              "sf2loki_pubsub_position_age_seconds",
              "sf2loki_schema_cache_size"));
      HttpResponse<String> metrics = run.get("/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      return metrics.body();
    }
  }
}
