package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
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
 * Exactly-once workers (KIP-618) with the connector's own transaction boundaries, and the REST
 * offsets API (KIP-875) as the operator's repair path, on a real broker and real workers.
 */
class ExactlyOnceClusterTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";
  private static final String STRINGS = "org.apache.kafka.connect.storage.StringConverter";
  @TempDir static Path dir;
  private static ConnectCluster cluster;

  private final Instant hour =
      Instant.now().minus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
  private FakeSalesforce org;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = ConnectCluster.start(dir, 2, true);
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

  @AfterEach
  void stopOrg() {
    org.close();
  }

  private void create(String name, String hocon) throws Exception {
    Map<String, String> config =
        Map.of(
            "connector.class", Sf2LokiSourceConnector.class.getName(),
            "tasks.max", "1",
            "topic", name,
            "sf2loki.config", hocon,
            "sf2loki.poll.max.records", "50",
            "exactly.once.support", "required",
            "transaction.boundary", "connector");
    var answer =
        cluster.send("PUT", "connectors/" + name + "/config", JSON.writeValueAsString(config));
    assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);
  }

  private static List<String> lines(String topic) {
    return cluster.readAll(topic).stream()
        .map(ConsumerRecord::value)
        .filter(v -> v != null)
        .map(
            v -> {
              try {
                JsonNode value = JSON.readTree(v);
                return value.get("labels").toString() + value.get("line").asText();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            })
        .toList();
  }

  @Test
  void aWorkerStoppedDuringTheDrainLeavesEveryEntryInTheTopicExactlyOnce() throws Exception {
    org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 2000);
    org.addLogFile("Logout", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 2000);
    create(
        "eos",
        SourceTaskTest.hocon(org)
            .replace("event_types = [Login]", "event_types = [Login, Logout]"));
    await().atMost(TestTiming.seconds(90)).until(() -> !lines("eos").isEmpty());

    cluster.stopWorker(0);
    cluster.addWorker();

    await()
        .atMost(TestTiming.seconds(120))
        .pollInterval(TestTiming.seconds(1))
        .until(() -> new HashSet<>(lines("eos")).size() >= 4000);
    List<String> lines = lines("eos");
    assertThat(lines).hasSize(4000).doesNotHaveDuplicates();
    cluster.send("DELETE", "connectors/eos", null);
  }

  /**
   * The worked example of kafka-connect.md, key for key: the source writes JSON bytes in
   * transactions with a larger producer batch, the sink reads them with the same converters and
   * only committed transactions, and Loki gets every entry.
   */
  @Test
  void theDocumentedWorkedExampleCarriesEveryEntryOnceIntoTheTopicAndIntoLoki() throws Exception {
    org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 1500);
    Map<String, String> source = new HashMap<>();
    source.put("connector.class", Sf2LokiSourceConnector.class.getName());
    source.put("tasks.max", "1");
    source.put("topic", "worked");
    source.put("exactly.once.support", "required");
    source.put("transaction.boundary", "connector");
    source.put("sf2loki.record.format", "json");
    source.put("value.converter", BYTES);
    source.put("key.converter", STRINGS);
    source.put("producer.override.batch.size", "524288");
    source.put("producer.override.linger.ms", "5");
    source.put("sf2loki.config", SourceTaskTest.hocon(org));
    var created = cluster.send("PUT", "connectors/worked/config", JSON.writeValueAsString(source));
    assertThat(created.statusCode()).as(created.body()).isIn(200, 201);

    try (FakeLoki loki = FakeLoki.start()) {
      Map<String, String> sink = new HashMap<>();
      sink.put("connector.class", LokiSinkConnector.class.getName());
      sink.put("tasks.max", "2");
      sink.put("topics", "worked");
      sink.put("consumer.override.isolation.level", "read_committed");
      sink.put("value.converter", BYTES);
      sink.put("key.converter", STRINGS);
      sink.put("sf2loki.config", "sink.loki { url = \"%s\" }".formatted(loki.baseUri()));
      var sinkCreated =
          cluster.send("PUT", "connectors/worked-loki/config", JSON.writeValueAsString(sink));
      assertThat(sinkCreated.statusCode()).as(sinkCreated.body()).isIn(200, 201);

      await()
          .atMost(TestTiming.seconds(90))
          .pollInterval(TestTiming.seconds(1))
          .until(() -> SinkDeliveries.received(loki).size() >= 1500);
      assertThat(lines("worked")).hasSize(1500).doesNotHaveDuplicates();
      assertThat(SinkDeliveries.received(loki)).hasSize(1500);
      assertThat(loki.entries())
          .allSatisfy(e -> assertThat(e.labels()).containsEntry("event_type", "Login"));
    } finally {
      cluster.send("DELETE", "connectors/worked-loki", null);
      cluster.send("DELETE", "connectors/worked", null);
    }
  }

  @Test
  void theRestOffsetsApiRefusesATokenTheSourceCannotParseAndWritesOneItCan() throws Exception {
    org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 10);
    create("repair", SourceTaskTest.hocon(org));
    await().atMost(TestTiming.seconds(90)).until(() -> lines("repair").size() >= 10);
    cluster.send("PUT", "connectors/repair/stop", null);
    await()
        .atMost(TestTiming.seconds(30))
        .until(
            () ->
                cluster
                    .send("GET", "connectors/repair/status", null)
                    .body()
                    .contains("\"state\":\"STOPPED\""));

    String partition = "{\"org\":\"default\",\"key\":\"eventlogfile:Login\"}";
    var refused =
        cluster.send(
            "PATCH",
            "connectors/repair/offsets",
            "{\"offsets\":[{\"partition\":" + partition + ",\"offset\":{\"token\":\"garbage\"}}]}");
    // Connect answers a connector's refusal with 500 and the connector's message
    assertThat(refused.statusCode()).as(refused.body()).isGreaterThanOrEqualTo(400);
    assertThat(refused.body()).contains("refusing token for 'eventlogfile:Login'");
    assertThat(cluster.send("GET", "connectors/repair/offsets", null).body())
        .doesNotContain("garbage");

    var written =
        cluster.send(
            "PATCH",
            "connectors/repair/offsets",
            "{\"offsets\":[{\"partition\":"
                + partition
                + ",\"offset\":{\"token\":\"2026-07-01T00:00:00.000+0000\"}}]}");
    assertThat(written.statusCode()).as(written.body()).isEqualTo(200);
    assertThat(cluster.send("GET", "connectors/repair/offsets", null).body())
        .contains("2026-07-01T00:00:00.000+0000");
    cluster.send("DELETE", "connectors/repair", null);
  }
}
