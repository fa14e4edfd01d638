package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every source family besides EventLogFile and event objects ({@link SourceConnectorClusterTest})
 * in a real worker against the testkit's fakes: Event Log Objects, Apex debug logs and Pub/Sub each
 * write their entries with the documented source partition, and a stopped connector resumed after
 * new data reads only the new data from its committed offsets.
 */
class SourceFamiliesClusterTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ORG_ID = "00D000000000001AAA";

  /** An Event Log Object's default settle window: rows younger than it are not read yet. */
  private static final Duration SETTLE = Duration.ofMinutes(50);

  @TempDir static Path dir;
  private static ConnectCluster cluster;

  private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  private final List<String> connectors = new ArrayList<>();
  private FakeSalesforce org;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = ConnectCluster.start(dir, 1);
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @BeforeEach
  void startOrg() {
    org = FakeSalesforce.builder().clientId("cid").clientSecret("secret").orgId(ORG_ID).build();
  }

  @AfterEach
  void stopOrg() throws Exception {
    for (String name : connectors) {
      cluster.send("DELETE", "connectors/" + name, null);
    }
    org.close();
  }

  private String salesforce() {
    return """
        salesforce { auth_mode = client_credentials, login_url = "%s", client_id = cid, client_secret = secret }
        service { failure_backoff_min = 100ms, failure_backoff_max = 200ms, shutdown_grace = 5s }
        """
        .formatted(org.baseUrl());
  }

  @Test
  void eventLogObjectsResumeFromTheirCursorAfterAStop() throws Exception {
    org.eventLogObjects().define("LoginEventLog");
    addEventLogRows(now.minus(3, ChronoUnit.HOURS), ChronoUnit.SECONDS, 12);
    String hocon =
        salesforce()
            + "sources.eventlog_objects { enabled = true, objects = [{name = LoginEventLog,"
            + " poll_interval = 2s, lookback = 6h}] }\n";

    runStopAddResume(
        "elo",
        hocon,
        "eventlog_objects:LoginEventLog",
        12,
        // the cursor is the end of the last query window, Salesforce's now minus the 50-minute
        // settle, taken before the stop: rows stamped a little after that are new (and readable
        // a few seconds later); rows stamped before it are late data the cursor has passed
        () -> addEventLogRows(Instant.now().minus(SETTLE).plusSeconds(3), ChronoUnit.MILLIS, 5),
        5);
  }

  private void addEventLogRows(Instant from, ChronoUnit step, int rows) {
    for (int i = 0; i < rows; i++) {
      Instant at = from.plus(i, step);
      org.eventLogObjects().add("LoginEventLog", at, at, Map.of());
    }
  }

  @Test
  void apexDebugLogsResumeFromTheirCursorAfterAStop() throws Exception {
    for (int i = 0; i < 4; i++) {
      org.apexLogs().add(now.minusSeconds(1200 - i), "dev@acme.com", "Success", "first " + i);
    }
    String hocon =
        salesforce() + "sources.apexlog { enabled = true, poll_interval = 1s, lookback = 1h }\n";

    runStopAddResume(
        "apex",
        hocon,
        "apexlog",
        4,
        () -> {
          for (int i = 0; i < 3; i++) {
            org.apexLogs().add(now.minusSeconds(600 - i), "dev@acme.com", "Success", "next " + i);
          }
        },
        3);
  }

  @Test
  void pubSubResumesAfterItsCommittedReplayIdAfterAStop() throws Exception {
    try (FakePubSub pubsub =
        FakePubSub.builder().standardTopics().orgId(ORG_ID).tokens(org::isValidToken).start()) {
      publish(pubsub, 0, 6);
      // EARLIEST for a topic without a position: a resume that ignored the offset would re-read all
      String hocon =
          salesforce()
              + "sources.pubsub { enabled = true, plaintext = true, endpoint = \"%s\", topics = [\"%s\"], replay_preset = EARLIEST }\n"
                  .formatted(pubsub.target(), FakePubSub.LOGIN);

      runStopAddResume(
          "pubsub", hocon, "pubsub:" + FakePubSub.LOGIN, 6, () -> publish(pubsub, 6, 4), 4);
    }
  }

  @Test
  void requiringExactlyOnceOfAPubSubSourceIsRefusedAtCreationWithTheReason() throws Exception {
    String hocon =
        salesforce()
            + "sources.pubsub { enabled = true, plaintext = true, endpoint = \"localhost:7443\","
            + " topics = [\"/event/LoginEventStream\"] }\n";
    Map<String, String> config = config("eos-pubsub", hocon);
    config.put("exactly.once.support", "required");
    config.put("transaction.boundary", "connector");

    var answer =
        cluster.send("PUT", "connectors/eos-pubsub/config", JSON.writeValueAsString(config));

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(answer.body())
        .contains("exactly.once.support=required cannot hold with sources.pubsub enabled");
  }

  private static void publish(FakePubSub pubsub, int from, int n) {
    for (int i = from; i < from + n; i++) {
      pubsub.publish(
          FakePubSub.LOGIN,
          Map.of(
              "Username", "u" + i + "@example.com",
              "EventDate", 1_780_000_000_000L + i,
              "EventIdentifier", "ev-" + i));
    }
  }

  /**
   * Runs a connector until {@code first} entries are in its topic and the offset of {@code key} is
   * committed, stops it, {@code adds} while stopped, resumes it and expects exactly {@code more}
   * new entries and no entry twice.
   */
  private void runStopAddResume(
      String name, String hocon, String key, int first, Runnable adds, int more) throws Exception {
    var created =
        cluster.send(
            "PUT", "connectors/" + name + "/config", JSON.writeValueAsString(config(name, hocon)));
    assertThat(created.statusCode()).as(created.body()).isIn(200, 201);
    connectors.add(name);
    try {
      await().atMost(TestTiming.seconds(90)).until(() -> lines(name).size() >= first);
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError(
          cluster.send("GET", "connectors/" + name + "/status", null).body()
              + cluster.send("GET", "connectors/" + name + "/offsets", null).body()
              + lines(name),
          e);
    }
    await().atMost(TestTiming.seconds(30)).until(() -> partitions(name).contains(key));
    assertThat(partitions(name)).containsOnly(key);

    assertThat(cluster.send("PUT", "connectors/" + name + "/stop", null).statusCode())
        .isIn(202, 204);
    await()
        .atMost(TestTiming.seconds(30))
        .until(
            () ->
                cluster
                    .send("GET", "connectors/" + name + "/status", null)
                    .body()
                    .contains("\"state\":\"STOPPED\""));
    adds.run();
    assertThat(cluster.send("PUT", "connectors/" + name + "/resume", null).statusCode())
        .isIn(202, 204);

    await().atMost(TestTiming.seconds(90)).until(() -> lines(name).size() >= first + more);
    // a resume that re-read from an older position would add entries within this window
    await()
        .during(TestTiming.seconds(3))
        .atMost(TestTiming.seconds(30))
        .until(() -> lines(name).size() == first + more);
    assertThat(lines(name)).doesNotHaveDuplicates();
  }

  private static Map<String, String> config(String name, String hocon) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", Sf2LokiSourceConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("topic", name);
    config.put("sf2loki.config", hocon);
    return config;
  }

  /** Each entry of the topic as its labels and line (checkpoint-only records skipped). */
  private static List<String> lines(String topic) {
    List<String> out = new ArrayList<>();
    for (ConsumerRecord<String, String> record : cluster.readAll(topic)) {
      if (record.value() != null) {
        try {
          JsonNode value = JSON.readTree(record.value());
          out.add(value.get("labels").toString() + value.get("line").asText());
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return out;
  }

  /** The checkpoint keys of the connector's committed offsets, each under org {@code default}. */
  private static List<String> partitions(String name) throws Exception {
    JsonNode offsets =
        JSON.readTree(cluster.send("GET", "connectors/" + name + "/offsets", null).body());
    List<String> keys = new ArrayList<>();
    for (JsonNode offset : offsets.path("offsets")) {
      assertThat(offset.path("partition").path("org").asText()).isEqualTo("default");
      assertThat(offset.path("offset").path("token").asText()).isNotBlank();
      keys.add(offset.path("partition").path("key").asText());
    }
    return keys;
  }
}
