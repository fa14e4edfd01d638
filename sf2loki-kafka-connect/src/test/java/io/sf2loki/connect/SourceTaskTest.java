package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The source task against the fake org, without a broker: what it hands Connect, and that it
 * resumes from the offsets Connect committed. (The cluster tests run it inside real workers.)
 */
class SourceTaskTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Instant hour =
      Instant.now().minus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
  private FakeSalesforce org;
  private final InMemoryTaskContext offsets = new InMemoryTaskContext();
  private final List<Sf2LokiSourceTask> started = new ArrayList<>();

  @BeforeEach
  void start() {
    org = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 30);
    org.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    for (int i = 0; i < 3; i++) {
      org.eventObjects().add("SetupAuditTrail", Instant.now().minusSeconds(900 + i));
    }
  }

  @AfterEach
  void stop() {
    started.forEach(Sf2LokiSourceTask::stop);
    org.close();
  }

  static String hocon(FakeSalesforce org) {
    return """
        salesforce { auth_mode = client_credentials, login_url = "%s", client_id = cid, client_secret = secret }
        sources.eventlogfile { enabled = true, event_types = [Login], poll_interval = 1s, lookback = 12h }
        sources.eventlog_objects {
          enabled = true
          objects = [{name = SetupAuditTrail, settle_window = 0, poll_interval = 1s, lookback = 1h}]
        }
        service { failure_backoff_min = 100ms, failure_backoff_max = 200ms, shutdown_grace = 5s }
        """
        .formatted(org.baseUrl());
  }

  private Sf2LokiSourceTask task(String hocon) {
    return task(hocon, Map.of());
  }

  private Sf2LokiSourceTask task(String hocon, Map<String, String> more) {
    Sf2LokiSourceTask task = new Sf2LokiSourceTask();
    task.initialize(offsets);
    Map<String, String> props =
        new HashMap<>(
            Map.of(
                "topic",
                "salesforce",
                "sf2loki.config",
                hocon,
                ConnectorSettings.TASK_ORGS,
                "default"));
    props.putAll(more);
    task.start(props);
    started.add(task);
    return task;
  }

  private static List<SourceRecord> entries(List<SourceRecord> records) {
    return records.stream().filter(r -> r.value() != null).toList();
  }

  private static List<SourceRecord> pollUntil(Sf2LokiSourceTask task, int entries)
      throws InterruptedException {
    List<SourceRecord> all = new ArrayList<>();
    long deadline = System.nanoTime() + TestTiming.seconds(60).toNanos();
    while (entries(all).size() < entries && System.nanoTime() < deadline) {
      all.addAll(task.poll());
    }
    return all;
  }

  @Test
  void everyEventLogFileRowAndEventObjectBecomesARecordOnTheTopic() throws Exception {
    List<SourceRecord> records = pollUntil(task(hocon(org)), 33);

    assertThat(entries(records)).hasSize(33).allMatch(r -> r.topic().equals("salesforce"));
    List<SourceRecord> positioned =
        records.stream().filter(r -> r.sourcePartition() != null).toList();
    assertThat(positioned)
        .extracting(r -> String.valueOf(r.sourcePartition().get("key")))
        .contains("eventlogfile:Login")
        .anyMatch(key -> key.contains("SetupAuditTrail"));
    assertThat(entries(records))
        .extracting(r -> ((Struct) r.value()).getMap("labels").get("job"))
        .containsOnly("sf2loki");
    assertThat(positioned).allMatch(r -> "default".equals(r.sourcePartition().get("org")));
  }

  @Test
  void theJsonRecordFormatHandsConnectEveryEntryAsItsJsonBytes() throws Exception {
    List<SourceRecord> records =
        pollUntil(task(hocon(org), Map.of(ConnectorSettings.RECORD_FORMAT, "json")), 33);

    assertThat(entries(records))
        .hasSize(33)
        .allMatch(r -> r.valueSchema().equals(Schema.BYTES_SCHEMA));
    for (SourceRecord r : entries(records)) {
      JsonNode value = JSON.readTree((byte[]) r.value());
      assertThat(value.path("labels").path("job").asText()).isEqualTo("sf2loki");
      assertThat(value.path("line").isTextual()).isTrue();
    }
  }

  @Test
  void aRestartedTaskResumesFromTheCommittedOffsetsAndReadsOnlyWhatIsNew() throws Exception {
    Sf2LokiSourceTask first = task(hocon(org));
    offsets.commit(pollUntil(first, 33));
    first.stop();
    started.remove(first);
    org.addLogFile(
        "Login", "Hourly", hour.plus(1, ChronoUnit.HOURS), hour.plus(130, ChronoUnit.MINUTES), 5);

    List<SourceRecord> again = pollUntil(task(hocon(org)), 5);

    assertThat(entries(again)).hasSize(5);
    assertThat(entries(again))
        .allMatch(r -> r.sourcePartition().get("key").equals("eventlogfile:Login"));
  }

  @Test
  void rejectedCredentialsFailTheTaskWithTheOrgAndReasonOnceNothingIsLeftToHand() throws Exception {
    Sf2LokiSourceTask task =
        task(hocon(org).replace("client_secret = secret", "client_secret = revoked"));

    await()
        .atMost(TestTiming.seconds(30))
        .ignoreExceptionsMatching(e -> false)
        .until(
            () -> {
              try {
                task.poll();
                return false;
              } catch (ConnectException e) {
                assertThat(e.getMessage())
                    .startsWith("org default failed: permanent auth_rejected");
                return true;
              }
            });
  }
}
