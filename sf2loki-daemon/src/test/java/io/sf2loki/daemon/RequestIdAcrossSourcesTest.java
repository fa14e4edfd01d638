package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One request id across EventLogFile ({@code REQUEST_ID}), an event object and a Pub/Sub event
 * ({@code RequestIdentifier}): the composed daemon ships all three with structured metadata {@code
 * request_id}, so {@code {job="sf2loki"} | request_id="…"} finds them together; the Threat
 * Detection ones also carry {@code score}, {@code severity} and their nested {@code
 * SecurityEventData}.
 */
class RequestIdAcrossSourcesTest {

  private static final String LOGIN_ANOMALY = "/event/LoginAnomalyEvent";
  private static final String UNIVERSAL_STORE = "UniversalAnomalyEventStore";

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakePubSub pubsub;
  private FakeLoki loki;

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    pubsub = FakePubSub.builder().tokens(salesforce::isValidToken).threatDetectionTopics().start();
    loki = FakeLoki.start();
  }

  @AfterEach
  void stop() {
    loki.close();
    pubsub.close();
    salesforce.close();
  }

  private String config() {
    return """
        salesforce { auth_mode = client_credentials, login_url = "%s"
                     client_id = cid, client_secret = secret }
        sources.eventlogfile { enabled = true, event_types = [Login], interval = Hourly
                               poll_interval = 1s, lookback = 12h }
        sources.eventlog_objects { enabled = true
          objects = [{name = %s, settle_window = 0, poll_interval = 1s, lookback = 1h}] }
        sources.pubsub { enabled = true, endpoint = "%s", plaintext = true
                         topics = ["%s"], replay_preset = EARLIEST }
        sink.loki { url = "%s", batch { flush_interval = 100ms } }
        state.file.path = "%s"
        service.shutdown_grace = 1s
        """
        .formatted(
            salesforce.baseUrl(),
            UNIVERSAL_STORE,
            pubsub.target(),
            LOGIN_ANOMALY,
            loki.baseUri(),
            dir.resolve("state.json"));
  }

  @Test
  void oneRequestIdSelectsItsEntriesFromEventLogFileObjectsAndPubSub() throws Exception {
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    LogFileSpec file =
        salesforce.addLogFile(
            "Login", "Hourly", hour.minus(2, ChronoUnit.HOURS), hour.minusSeconds(3600), 1);
    String requestId = salesforce.csv(file).expectedRow(0).get("REQUEST_ID");
    salesforce.eventObjects().define(UNIVERSAL_STORE, "EventDate", false);
    salesforce
        .eventObjects()
        .add(
            UNIVERSAL_STORE,
            Instant.now().minus(10, ChronoUnit.MINUTES),
            Instant.MIN,
            Map.of(
                "RequestIdentifier", requestId,
                "AnomalySubType", "MCPAnomaly",
                "Score", 85,
                "Summary", "Unusual MCP tool calls",
                "SecurityEventData", "{\"topFeatures\": [\"toolCallRate\"]}"));
    pubsub.publish(
        LOGIN_ANOMALY,
        Map.of(
            "EventIdentifier",
            "ev-1",
            "EventDate",
            System.currentTimeMillis(),
            "RequestIdentifier",
            requestId,
            "Score",
            45.0,
            "Summary",
            "Login from an unusual place",
            "SecurityEventData",
            "not json"));

    ComposedRun run = ComposedRun.start(config());
    try {
      await("the request's entries from all three sources are in Loki")
          .atMost(TestTiming.seconds(60))
          .until(() -> sourcesOf(requestId).size() == 3);
    } finally {
      run.close();
    }

    assertThat(sourcesOf(requestId))
        .containsExactlyInAnyOrder("eventlogfile", "eventlog_objects", "pubsub");
    AcceptedEntry store = only(requestId, "eventlog_objects");
    assertThat(store.metadata())
        .containsEntry("anomaly_sub_type", "MCPAnomaly")
        .containsEntry("score", "85")
        .containsEntry("severity", "critical");
    assertThat(store.line())
        .contains("\"SecurityEventData\": {\"topFeatures\": [\"toolCallRate\"]}")
        .contains("\"Summary\": \"Unusual MCP tool calls\"");
    AcceptedEntry event = only(requestId, "pubsub");
    assertThat(event.metadata()).containsEntry("score", "45.0").containsEntry("severity", "medium");
    assertThat(event.line()).contains("\"SecurityEventData\": \"not json\"");
  }

  private List<AcceptedEntry> withRequestId(String requestId) {
    return loki.entries().stream()
        .filter(e -> requestId.equals(e.metadata().get("request_id")))
        .toList();
  }

  private List<String> sourcesOf(String requestId) {
    return withRequestId(requestId).stream().map(e -> e.labels().get("source")).toList();
  }

  private AcceptedEntry only(String requestId, String source) {
    List<AcceptedEntry> matching =
        withRequestId(requestId).stream()
            .filter(e -> source.equals(e.labels().get("source")))
            .toList();
    assertThat(matching).hasSize(1);
    return matching.get(0);
  }
}
