package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.connect.CrashRows.Row;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 33's crash scenario with the source connector: three distributed workers, each a JVM of its
 * own ({@link ChildWorker}), two orgs, 20 EventLogFile types and 5 event objects; one worker is
 * killed with {@code kill -9} in the middle of the drain, which commits no offsets (unlike {@code
 * Connect.stop()}). The counts each test saw are logged.
 */
class WorkerCrashTest {

  private static final Logger LOG = LoggerFactory.getLogger(WorkerCrashTest.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final List<String> TYPES =
      List.of(
          "Login",
          "Logout",
          "API",
          "URI",
          "RestApi",
          "ReportExport",
          "Report",
          "LightningPageView",
          "LightningInteraction",
          "VisualforceRequest",
          "ApexExecution",
          "ApexCallout",
          "ApexTrigger",
          "ApexSoap",
          "BulkApi",
          "ContentTransfer",
          "Dashboard",
          "LightningError",
          "Sites",
          "TimeBasedWorkflow");
  static final List<String> OBJECTS =
      List.of("SetupAuditTrail", "AuditA__c", "AuditB__c", "AuditC__c", "AuditD__c");
  private static final int HOURS = 2;
  private static final int ROWS_PER_FILE = 200;
  private static final int ROWS_PER_OBJECT = 150;
  private static final int ROWS =
      2 * (TYPES.size() * HOURS * ROWS_PER_FILE + OBJECTS.size() * ROWS_PER_OBJECT);

  @TempDir static Path dir;
  private static ConnectCluster kafka;
  private static final Instant FIRST_HOUR =
      Instant.now().truncatedTo(ChronoUnit.HOURS).minus(4, ChronoUnit.HOURS);
  private static final Instant FIRST_OBJECT_ROW = Instant.now().minus(40, ChronoUnit.MINUTES);
  private final List<ChildWorker> workers = new ArrayList<>();
  private final List<FakeSalesforce> orgs = new ArrayList<>();

  @BeforeAll
  static void startBroker() throws Exception {
    kafka = ConnectCluster.broker(dir);
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  /** Every worker a test started is killed, whether it passed or not. */
  @AfterEach
  void killWorkersAndStopOrgs() {
    for (ChildWorker worker : workers) {
      if (worker.isAlive()) {
        LOG.info("{}: last lines\n{}", worker.name(), worker.logTail(15));
      }
      worker.close();
    }
    orgs.forEach(FakeSalesforce::close);
  }

  private List<ChildWorker> startWorkers(String group, boolean exactlyOnce, String names)
      throws Exception {
    return startWorkers(group, exactlyOnce, names, Map.of());
  }

  private List<ChildWorker> startWorkers(
      String group, boolean exactlyOnce, String names, Map<String, String> overrides)
      throws Exception {
    Map<String, String> properties = new HashMap<>(kafka.workerProperties(group, exactlyOnce));
    properties.putAll(overrides);
    List<ChildWorker> trio =
        ChildWorker.startAll(
            dir,
            List.of(names + "-0", names + "-1", names + "-2"),
            properties,
            System.getProperty("java.class.path"));
    workers.addAll(trio);
    return new ArrayList<>(trio);
  }

  /** Two orgs with the scenario's backlog: every file and row in the last four hours. */
  private void startOrgs() {
    for (String id : List.of("00D000000000001AAA", "00D000000000002AAA")) {
      FakeSalesforce org =
          FakeSalesforce.builder().clientId("cid").clientSecret("secret").orgId(id).build();
      for (int h = 0; h < HOURS; h++) {
        addFiles(org, TYPES, FIRST_HOUR.plus(h, ChronoUnit.HOURS), ROWS_PER_FILE);
      }
      for (String object : OBJECTS) {
        org.eventObjects().define(object, "CreatedDate", false);
        addObjectRows(org, object, FIRST_OBJECT_ROW, ROWS_PER_OBJECT);
      }
      orgs.add(org);
    }
  }

  private static void addFiles(FakeSalesforce org, List<String> types, Instant hour, int rows) {
    for (String type : types) {
      org.addLogFile(type, "Hourly", hour, hour.plus(61, ChronoUnit.MINUTES), rows);
    }
  }

  /** Rows a second apart: a row's time tells on which side of a committed cursor it lies. */
  private static void addObjectRows(FakeSalesforce org, String object, Instant from, int rows) {
    for (int i = 0; i < rows; i++) {
      org.eventObjects().add(object, from.plusSeconds(i));
    }
  }

  private String hocon() {
    String objects =
        OBJECTS.stream()
            .map(
                o ->
                    "{name = %s, timestamp_field = CreatedDate, big_object = false,".formatted(o)
                        + " settle_window = 0, poll_interval = 1s, lookback = 1h}")
            .collect(Collectors.joining(", "));
    return """
        salesforce { auth_mode = client_credentials }
        sources.eventlogfile { enabled = true, event_types = [%s], poll_interval = 1s, lookback = 12h }
        sources.eventlog_objects { enabled = true, objects = [%s] }
        service { failure_backoff_min = 100ms, failure_backoff_max = 200ms, shutdown_grace = 5s }
        orgs = [
          { name = prod, salesforce { login_url = "%s", client_id = cid, client_secret = secret } }
          { name = emea, salesforce { login_url = "%s", client_id = cid, client_secret = secret } }
        ]
        """
        .formatted(String.join(", ", TYPES), objects, orgs.get(0).baseUrl(), orgs.get(1).baseUrl());
  }

  private void createSource(ChildWorker via, String name, boolean exactlyOnce) throws Exception {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", Sf2LokiSourceConnector.class.getName());
    config.put("tasks.max", "2");
    config.put("topic", name);
    config.put("sf2loki.config", hocon());
    config.put("sf2loki.poll.max.records", "200");
    if (exactlyOnce) {
      config.put("exactly.once.support", "required");
      config.put("transaction.boundary", "connector");
    }
    var answer = via.send("PUT", "connectors/" + name + "/config", JSON.writeValueAsString(config));
    assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);
  }

  private static Set<String> logFileTypes() {
    return Set.copyOf(TYPES);
  }

  private static List<Row> rows(String topic) {
    return CrashRows.rows(kafka.readToEnd(topic), logFileTypes());
  }

  private static long distinct(List<Row> rows) {
    return rows.stream().map(Row::identity).distinct().count();
  }

  /** Waits until the topic holds part of the backlog, then kills a worker running a task. */
  private ChildWorker killDuringTheDrain(List<ChildWorker> trio, String connector, String topic)
      throws Exception {
    await()
        .atMost(TestTiming.seconds(90))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> kafka.recordsIn(topic) >= ROWS / 4);
    ChildWorker victim = runningTask(trio, connector);
    victim.kill();
    trio.remove(victim);
    int landed = rows(topic).size();
    LOG.info("killed {} (-9) with {} of {} rows in topic {}", victim.name(), landed, ROWS, topic);
    assertThat(landed).as("the kill came during the drain").isLessThan(ROWS);
    return victim;
  }

  /** The worker running task 0 of {@code connector}, as its status names it. */
  private static ChildWorker runningTask(List<ChildWorker> trio, String connector)
      throws Exception {
    JsonNode status =
        JSON.readTree(trio.get(0).send("GET", "connectors/" + connector + "/status", null).body());
    String worker = status.get("tasks").get(0).get("worker_id").asText();
    return trio.stream()
        .filter(w -> worker.endsWith(w.workerId().substring(w.workerId().indexOf(':'))))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no worker " + worker + " in " + status));
  }

  private static Duration awaitEveryRow(String topic, long expected) {
    long start = System.nanoTime();
    // counting the records first is cheap; reading and parsing them all takes a core for a while
    await()
        .atMost(TestTiming.seconds(120))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> kafka.recordsIn(topic) >= expected);
    await()
        .atMost(TestTiming.seconds(60))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> distinct(rows(topic)) >= expected);
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /** The rows of {@code rows} that occur more than once, each extra copy once. */
  private static List<Row> duplicates(List<Row> rows) {
    Set<String> seen = new HashSet<>();
    return rows.stream().filter(r -> !seen.add(r.identity())).toList();
  }

  @Test
  void exactlyOnceWorkersKilledDuringTheDrainLeaveEveryRowInTheTopicOnce() throws Exception {
    startOrgs();
    List<ChildWorker> trio = startWorkers("crash-eos", true, "eos");
    createSource(trio.get(0), "eos", true);

    killDuringTheDrain(trio, "eos", "eos");
    var committedAtKill = CrashRows.committed(kafka.readToEnd("crash-eos-offsets"), "eos");
    Duration recovery = awaitEveryRow("eos", ROWS);

    List<Row> rows = rows("eos");
    LOG.info(
        "exactly once: {} rows expected, {} distinct in the topic, {} duplicates; all in {} after"
            + " the kill",
        ROWS,
        distinct(rows),
        duplicates(rows).size(),
        recovery);
    logDuplicatesPerPartition(rows, committedAtKill);
    assertThat(distinct(rows)).isEqualTo(ROWS);
    assertThat(duplicates(rows)).isEmpty();
  }

  @Test
  void atLeastOnceWorkersKilledDuringTheDrainWriteAgainOnlyTheUncommittedTail() throws Exception {
    startOrgs();
    List<ChildWorker> trio = startWorkers("crash-alo", false, "alo");
    createSource(trio.get(0), "alo", false);

    killDuringTheDrain(trio, "alo", "alo");
    // the successor cannot start before the session times out: this is what it resumes from
    var committed = CrashRows.committed(kafka.readToEnd("crash-alo-offsets"), "alo");
    Duration recovery = awaitEveryRow("alo", ROWS);

    List<Row> rows = rows("alo");
    List<Row> duplicates = duplicates(rows);
    LOG.info(
        "at least once: {} rows expected, {} distinct in the topic, {} duplicates ({} source"
            + " partitions committed at the kill); all in {} after the kill",
        ROWS,
        distinct(rows),
        duplicates.size(),
        committed.size(),
        recovery);
    logDuplicatesPerPartition(rows, committed);
    assertThat(distinct(rows)).isEqualTo(ROWS);
    assertThat(duplicates).allMatch(r -> CrashRows.inUncommittedTail(r, committed));
  }

  @Test
  void aWholeClusterKilledAndRestartedResumesFromTheCommittedOffsets() throws Exception {
    startOrgs();
    List<ChildWorker> first = startWorkers("crash-restart", false, "first");
    createSource(first.get(0), "restart", false);
    awaitEveryRow("restart", ROWS);
    for (ChildWorker worker : first) {
      worker.kill();
    }
    var committed = CrashRows.committed(kafka.readToEnd("crash-restart-offsets"), "restart");
    List<Row> beforeRows = rows("restart");
    Set<String> before = beforeRows.stream().map(Row::identity).collect(Collectors.toSet());
    int beforeRecords = beforeRows.size();

    int added = 0;
    for (FakeSalesforce org : orgs) {
      addFiles(org, TYPES.subList(0, 3), FIRST_HOUR.plus(HOURS, ChronoUnit.HOURS), 50);
      addObjectRows(org, OBJECTS.get(0), FIRST_OBJECT_ROW.plusSeconds(ROWS_PER_OBJECT), 20);
      added += 3 * 50 + 20;
    }
    long start = System.nanoTime();
    startWorkers("crash-restart", false, "second");
    awaitEveryRow("restart", ROWS + added);
    Duration resumed = Duration.ofNanos(System.nanoTime() - start);

    List<Row> after = rows("restart");
    List<Row> appended = after.subList(beforeRecords, after.size());
    List<Row> readAgain = appended.stream().filter(r -> before.contains(r.identity())).toList();
    Set<String> fresh =
        appended.stream()
            .map(Row::identity)
            .filter(i -> !before.contains(i))
            .collect(Collectors.toCollection(LinkedHashSet::new));
    LOG.info(
        "restart: {} rows before, {} new rows arrived of {} added, {} old rows read again; {}"
            + " from the start of the new workers",
        before.size(),
        fresh.size(),
        added,
        readAgain.size(),
        resumed);
    assertThat(fresh).hasSize(added);
    assertThat(readAgain).allMatch(r -> CrashRows.inUncommittedTail(r, committed));
  }

  @Test
  void aSinkWorkerKilledWhileDeliveringLosesNothingAndPushesAgainOnlyWhatFollowsItsCommits()
      throws Exception {
    int partitions = 3;
    int perPartition = 2000;
    SinkDeliveries.fill(kafka.bootstrapServers(), "deliver", partitions, perPartition);
    // Connect's default flush interval: the commits during the delivery are the task's own
    List<ChildWorker> trio =
        startWorkers("crash-sink", false, "sink", Map.of("offset.flush.interval.ms", "60000"));
    try (FakeLoki loki = FakeLoki.start()) {
      // a slow Loki: the delivery takes seconds, so the kill lands in the middle of it
      loki.addFault(Fault.latency(Duration.ofMillis(200), 10_000));
      Map<String, String> config = new HashMap<>();
      config.put("connector.class", LokiSinkConnector.class.getName());
      config.put("tasks.max", String.valueOf(partitions));
      config.put("topics", "deliver");
      config.put(
          "sf2loki.config",
          """
          salesforce { auth_mode = client_credentials, login_url = "http://127.0.0.1:9",           client_id = cid, client_secret = secret }
          sink.loki { url = "%s", batch.max_entries = 100 }
          """
              .formatted(loki.baseUri()));
      // the dead task's partitions move once its consumer's session times out
      config.put("consumer.override.session.timeout.ms", "6000");
      config.put("consumer.override.heartbeat.interval.ms", "1000");
      // one put() a batch: a commit follows each (kafka-connect.md, what the sink pushes twice)
      config.put("consumer.override.max.poll.records", "100");
      var answer =
          trio.get(0).send("PUT", "connectors/deliver/config", JSON.writeValueAsString(config));
      assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);

      int total = partitions * perPartition;
      await()
          .atMost(TestTiming.seconds(90))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> loki.lines().size() >= total / 5);
      ChildWorker victim = runningTask(trio, "deliver");
      victim.kill();
      Map<TopicPartition, Long> committed =
          SinkDeliveries.committed(kafka.bootstrapServers(), "deliver");
      int landed = SinkDeliveries.received(loki).size();
      loki.clearFaults();
      LOG.info("killed {} (-9) with {} of {} entries in Loki", victim.name(), landed, total);
      assertThat(landed).as("the kill came during the delivery").isLessThan(total);

      long start = System.nanoTime();
      await()
          .atMost(TestTiming.seconds(120))
          .pollInterval(Duration.ofMillis(250))
          .until(() -> SinkDeliveries.received(loki).size() >= total);
      Duration recovery = Duration.ofNanos(System.nanoTime() - start);

      Map<String, Integer> received = SinkDeliveries.received(loki);
      List<String> again =
          received.entrySet().stream().filter(e -> e.getValue() > 1).map(e -> e.getKey()).toList();
      LOG.info(
          "sink: {} entries written, {} received, {} pushed more than once (committed at the kill:"
              + " {}); all in {} after the kill",
          total,
          received.size(),
          again.size(),
          committed,
          recovery);
      assertThat(received).hasSize(total);
      assertThat(again)
          .allMatch(
              line ->
                  SinkDeliveries.offset(line)
                      >= committed.getOrDefault(
                          new TopicPartition("deliver", SinkDeliveries.partition(line)), 0L));
      // a commit is requested after every put that pushed: what is pushed again per partition is
      // the put in flight at the kill and the one whose commit had not landed, not a flush
      // interval's
      assertThat(again.stream().collect(Collectors.groupingBy(SinkDeliveries::partition)))
          .allSatisfy((partition, lines) -> assertThat(lines).hasSizeLessThanOrEqualTo(3 * 100));
    }
  }

  private static void logDuplicatesPerPartition(
      List<Row> rows, Map<Map<String, String>, JsonNode> committed) {
    duplicates(rows).stream()
        .collect(Collectors.groupingBy(Row::partition, Collectors.counting()))
        .forEach(
            (partition, n) ->
                LOG.info(
                    "  {} written again: {} rows; committed at the kill: {}",
                    partition,
                    n,
                    committed.get(partition)));
  }
}
