package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source connector in real distributed workers over a real KRaft broker, against the fake org:
 * the entries land in the topic, a restarted connector resumes from its committed offsets, and a
 * worker stopped during a drain loses nothing. One cluster for the class keeps it fast.
 */
class SourceConnectorClusterTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;
  private static ConnectCluster cluster;

  private final Instant hour =
      Instant.now().minus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
  private FakeSalesforce org;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = ConnectCluster.start(dir, 2);
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @BeforeEach
  void startOrg() {
    org = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    org.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
  }

  private final List<String> connectors = new java.util.ArrayList<>();

  @AfterEach
  void stopOrg() throws Exception {
    for (String name : connectors) {
      cluster.send("DELETE", "connectors/" + name, null);
    }
    org.close();
  }

  private void create(String name, String topic, String hocon, int tasks) throws Exception {
    Map<String, String> config =
        Map.of(
            "connector.class",
            Sf2LokiSourceConnector.class.getName(),
            "tasks.max",
            String.valueOf(tasks),
            "topic",
            topic,
            "sf2loki.config",
            hocon,
            "sf2loki.poll.max.records",
            "50");
    var answer =
        cluster.send("PUT", "connectors/" + name + "/config", JSON.writeValueAsString(config));
    assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);
    connectors.add(name);
  }

  /** The lines of the topic's entries (checkpoint-only records skipped), duplicates kept. */
  private static List<String> lines(String topic) {
    return cluster.readAll(topic).stream()
        .map(ConsumerRecord::value)
        .filter(v -> v != null)
        .map(SourceConnectorClusterTest::line)
        .toList();
  }

  private static String line(String json) {
    try {
      JsonNode value = JSON.readTree(json);
      return value.get("labels").toString() + value.get("line").asText();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, String> strings(JsonNode object) {
    Map<String, String> out = new TreeMap<>();
    object.properties().forEach(f -> out.put(f.getKey(), f.getValue().asText()));
    return out;
  }

  private static JsonNode offsets(String name) throws Exception {
    return JSON.readTree(cluster.send("GET", "connectors/" + name + "/offsets", null).body());
  }

  @Test
  void everyEntryLandsInTheTopicWithItsStreamAsKey() throws Exception {
    org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 30);
    org.eventObjects().add("SetupAuditTrail", Instant.now().minusSeconds(900));

    create("lands", "lands", SourceTaskTest.hocon(org), 1);

    await()
        .atMost(TestTiming.seconds(90))
        .pollInterval(TestTiming.millis(500))
        .until(() -> lines("lands").size() >= 31);
    List<ConsumerRecord<String, String>> records = cluster.readAll("lands");
    assertThat(records.stream().filter(r -> r.value() != null))
        .hasSize(31)
        .allMatch(r -> r.key().contains("job=\\\"sf2loki\\\""));
  }

  /**
   * What was committed before the stop is not read again. What comes after the resume arrives at
   * least once: Connect may restart the task once more while the resumed connector's assignment
   * settles (a rebalance), and a restarted task reads its uncommitted tail again, as any
   * at-least-once source does, so the new file may be read twice, never the old one.
   */
  @Test
  void aStoppedAndResumedConnectorReadsOnlyWhatIsNewFromItsCommittedOffsets() throws Exception {
    LogFileSpec first =
        org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 20);
    create("resumes", "resumes", SourceTaskTest.hocon(org), 1);
    await().atMost(TestTiming.seconds(90)).until(() -> lines("resumes").size() >= 20);
    // the offset past the file (its id in the cursor), not the one its first rows carry
    await()
        .atMost(TestTiming.seconds(30))
        .until(() -> offsets("resumes").toString().contains(first.id()));
    List<String> before = lines("resumes");

    assertThat(cluster.send("PUT", "connectors/resumes/stop", null).statusCode()).isIn(202, 204);
    await()
        .atMost(TestTiming.seconds(30))
        .until(
            () ->
                cluster
                    .send("GET", "connectors/resumes/status", null)
                    .body()
                    .contains("\"state\":\"STOPPED\""));
    org.addLogFile(
        "Login", "Hourly", hour.plus(1, ChronoUnit.HOURS), hour.plus(130, ChronoUnit.MINUTES), 7);
    assertThat(cluster.send("PUT", "connectors/resumes/resume", null).statusCode()).isIn(202, 204);

    await()
        .atMost(TestTiming.seconds(90))
        .until(() -> new HashSet<>(lines("resumes")).size() >= 27);
    List<String> lines = lines("resumes");
    assertThat(before).hasSize(20).doesNotHaveDuplicates();
    assertThat(new HashSet<>(lines)).hasSize(27);
    assertThat(before)
        .as("the rows committed before the stop, each in the topic once")
        .allSatisfy(line -> assertThat(lines.stream().filter(line::equals)).hasSize(1));
    assertThat(lines.size() - 27).as("rows of the new file read twice").isLessThanOrEqualTo(7);
  }

  @Test
  void aWorkerStoppedDuringTheDrainLosesNothing() throws Exception {
    org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 3000);
    org.addLogFile("Logout", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 3000);
    create(
        "drain",
        "drain",
        SourceTaskTest.hocon(org).replace("event_types = [Login]", "event_types = [Login, Logout]"),
        1);
    await().atMost(TestTiming.seconds(90)).until(() -> !lines("drain").isEmpty());

    cluster.stopWorker(0); // whichever ran the task, the other one takes the group over
    cluster.addWorker();

    await()
        .atMost(TestTiming.seconds(120))
        .pollInterval(TestTiming.seconds(1))
        .until(() -> new HashSet<>(lines("drain")).size() >= 6000);
    Set<String> distinct = new HashSet<>(lines("drain"));
    assertThat(distinct).hasSize(6000);
  }

  @Test
  void theJsonRecordFormatReachesLokiThroughTheSinkConnectorAsTheEntriesInTheTopic()
      throws Exception {
    org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 30);
    String bytes = "org.apache.kafka.connect.converters.ByteArrayConverter";
    try (FakeLoki loki = FakeLoki.start()) {
      Map<String, String> source =
          Map.of(
              "connector.class",
              Sf2LokiSourceConnector.class.getName(),
              "topic",
              "json",
              "sf2loki.config",
              SourceTaskTest.hocon(org),
              "sf2loki.record.format",
              "json",
              "value.converter",
              bytes,
              "key.converter",
              "org.apache.kafka.connect.storage.StringConverter");
      Map<String, String> sink =
          Map.of(
              "connector.class",
              LokiSinkConnector.class.getName(),
              "topics",
              "json",
              "value.converter",
              bytes,
              "key.converter",
              "org.apache.kafka.connect.storage.StringConverter",
              "sf2loki.config",
              SourceTaskTest.hocon(org) + "sink.loki.url = \"%s\"\n".formatted(loki.baseUri()));
      for (var connector : Map.of("json-source", source, "json-sink", sink).entrySet()) {
        var answer =
            cluster.send(
                "PUT",
                "connectors/" + connector.getKey() + "/config",
                JSON.writeValueAsString(connector.getValue()));
        assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);
        connectors.add(connector.getKey());
      }

      await()
          .atMost(TestTiming.seconds(90))
          .pollInterval(TestTiming.millis(500))
          .until(() -> loki.entries().size() >= 30);
      Set<String> inTopic = new HashSet<>();
      for (ConsumerRecord<String, String> r : cluster.readAll("json")) {
        if (r.value() != null) {
          JsonNode value = JSON.readTree(r.value());
          inTopic.add(
              value.get("timestamp_ns").asLong()
                  + " "
                  + strings(value.get("labels"))
                  + " "
                  + strings(value.get("structured_metadata"))
                  + " "
                  + value.get("line").asText());
        }
      }
      Set<String> inLoki = new HashSet<>();
      for (var e : loki.entries()) {
        inLoki.add(
            e.timestampNanos()
                + " "
                + new TreeMap<>(e.labels())
                + " "
                + new TreeMap<>(e.metadata())
                + " "
                + e.line());
      }
      assertThat(inTopic).hasSize(30);
      assertThat(inLoki).isEqualTo(inTopic);
    }
  }

  @Test
  void salesforceToKafkaToLokiLosesNothingWhenAWorkerStopsAndLokiAnswers429() throws Exception {
    org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 1500);
    org.addLogFile("Logout", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 1500);
    try (FakeLoki loki = FakeLoki.start()) {
      loki.addFault(Fault.status(429, 2));
      create(
          "e2e-source",
          "e2e",
          SourceTaskTest.hocon(org)
              .replace("event_types = [Login]", "event_types = [Login, Logout]"),
          1);
      Map<String, String> sink =
          Map.of(
              "connector.class",
              LokiSinkConnector.class.getName(),
              "tasks.max",
              "2",
              "topics",
              "e2e",
              "sf2loki.config",
              SourceTaskTest.hocon(org)
                  + "sink.loki { url = \"%s\", batch.max_entries = 200 }\n"
                      .formatted(loki.baseUri()));
      var answer = cluster.send("PUT", "connectors/e2e-sink/config", JSON.writeValueAsString(sink));
      assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);
      connectors.add("e2e-sink");
      await().atMost(TestTiming.seconds(90)).until(() -> !loki.lines().isEmpty());

      cluster.stopWorker(0);
      cluster.addWorker();

      await()
          .atMost(TestTiming.seconds(120))
          .pollInterval(TestTiming.seconds(1))
          .until(() -> new HashSet<>(loki.lines()).size() >= 3000);
      assertThat(new HashSet<>(loki.lines())).hasSize(3000);
      assertThat(loki.pendingFaults()).isZero();
    }
  }
}
