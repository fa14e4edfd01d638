package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.pipeline.egress.DailyUsage;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Loki sink connector's daily byte budget under a real worker and broker: two tasks over a
 * four-partition topic share one budget, whose day's use rides the consumer group's committed
 * offsets; {@code pause} stops the commits at what Loki stored and survives a restart, {@code drop}
 * drops, counts and commits past.
 */
class SinkEgressClusterTest {

  private static final Logger LOG = LoggerFactory.getLogger(SinkEgressClusterTest.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PARTITIONS = 4;
  private static final int PER_PARTITION = 500;
  private static final int BATCH = 50;

  @TempDir static Path dir;
  private static ConnectCluster cluster;
  private static long topicBytes;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = ConnectCluster.start(dir, 1);
    SinkDeliveries.fill(cluster.bootstrapServers(), "budget", PARTITIONS, PER_PARTITION);
    for (int p = 0; p < PARTITIONS; p++) {
      for (int o = 0; o < PER_PARTITION; o++) {
        topicBytes += ("p" + p + "-" + o).getBytes(StandardCharsets.UTF_8).length;
      }
    }
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  /**
   * The bound on what Loki may receive past the budget (kafka-connect.md): each task may admit a
   * batch on a use that misses another task's batches not committed yet, at most about one each.
   */
  private static long overshoot() {
    return 2L * 2 * BATCH * "p0-499".length();
  }

  private static long budget() {
    return topicBytes / 3;
  }

  private void create(String name, FakeLoki loki, String action) throws Exception {
    create(name, loki, action, cluster.bootstrapServers());
  }

  private void create(String name, FakeLoki loki, String action, String adminBootstrap)
      throws Exception {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", LokiSinkConnector.class.getName());
    config.put("tasks.max", "2");
    config.put("topics", "budget");
    config.put("sf2loki.egress.admin.bootstrap.servers", adminBootstrap);
    config.put(
        "sf2loki.config",
        """
        sink.loki { url = "%s", batch.max_entries = %d }
        sink.loki.egress { daily_byte_budget = %d, budget_action = %s }
        """
            .formatted(loki.baseUri(), BATCH, budget(), action));
    // one put() a batch, so that a commit follows each
    config.put("consumer.override.max.poll.records", String.valueOf(BATCH));
    var answer =
        cluster.send("PUT", "connectors/" + name + "/config", JSON.writeValueAsString(config));
    assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);
  }

  private static long lineBytes(Set<String> lines) {
    return lines.stream().mapToLong(l -> l.getBytes(StandardCharsets.UTF_8).length).sum();
  }

  /** Waits until what Loki stored has not changed for a few seconds. */
  private static Set<String> settled(FakeLoki loki) {
    Set<String> last = new TreeSet<>();
    await()
        .atMost(TestTiming.seconds(40))
        .pollInterval(TestTiming.seconds(3))
        .until(
            () -> {
              Set<String> now = new TreeSet<>(SinkDeliveries.received(loki).keySet());
              boolean same = !now.isEmpty() && now.equals(last);
              last.clear();
              last.addAll(now);
              return same;
            });
    return last;
  }

  @Test
  void pauseStopsAtTheBudgetCommitsOnlyWhatLokiStoredAndKeepsTheUseAcrossARestart()
      throws Exception {
    try (FakeLoki loki = FakeLoki.start()) {
      create("paused", loki, "pause");

      Set<String> stored = settled(loki);
      long bytes = lineBytes(stored);
      LOG.info("pause: Loki stored {} bytes of {} (budget {})", bytes, topicBytes, budget());
      assertThat(bytes).isGreaterThan(budget() - 2L * BATCH * 6).isLessThan(budget() + overshoot());

      // the offsets stop at what Loki stored, and their metadata carries the day's use
      await()
          .atMost(TestTiming.seconds(20))
          .untilAsserted(
              () -> {
                Map<TopicPartition, Long> committed =
                    SinkDeliveries.committed(cluster.bootstrapServers(), "paused");
                for (int p = 0; p < PARTITIONS; p++) {
                  int partition = p;
                  Set<Long> offsets =
                      stored.stream()
                          .filter(l -> SinkDeliveries.partition(l) == partition)
                          .map(SinkDeliveries::offset)
                          .collect(Collectors.toSet());
                  long upTo = committed.getOrDefault(new TopicPartition("budget", p), 0L);
                  assertThat(offsets).as("partition %d", p).hasSize((int) upTo);
                  assertThat(offsets).allMatch(o -> o < upTo);
                }
                assertThat(usedToday("connect-paused")).isEqualTo(bytes);
              });

      var restart = cluster.send("POST", "connectors/paused/restart?includeTasks=true", null);
      assertThat(restart.statusCode()).as(restart.body()).isIn(200, 202, 204);
      await()
          .during(TestTiming.seconds(8))
          .atMost(TestTiming.seconds(20))
          .until(() -> SinkDeliveries.received(loki).keySet().equals(stored));
      assertThat(usedToday("connect-paused")).isEqualTo(bytes);
    }
  }

  @Test
  void aTaskHeldByTheBudgetPausesItsPartitionsAndStaysRunningWithoutConnectRetryErrors()
      throws Exception {
    ch.qos.logback.classic.Logger workerSinkTask =
        (ch.qos.logback.classic.Logger)
            LoggerFactory.getLogger("org.apache.kafka.connect.runtime.WorkerSinkTask");
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    workerSinkTask.addAppender(logged);
    try (FakeLoki loki = FakeLoki.start()) {
      create("quiet", loki, "pause");
      Set<String> stored = settled(loki);
      assertThat(lineBytes(stored)).isLessThan(budget() + overshoot());

      // a hold is not a failure: no "RetriableException from SinkTask" at ERROR per look
      assertThat(logged.list)
          .filteredOn(e -> e.getLevel() == Level.ERROR)
          .extracting(ILoggingEvent::getFormattedMessage)
          .isEmpty();
      var status = cluster.send("GET", "connectors/quiet/status", null);
      assertThat(JSON.readTree(status.body()).path("tasks").findValuesAsText("state"))
          .hasSize(2)
          .containsOnly("RUNNING");
    } finally {
      workerSinkTask.detachAppender(logged);
    }
  }

  @Test
  void dropDropsWhatTheBudgetCannotTakeCountsItAndCommitsPastIt() throws Exception {
    try (FakeLoki loki = FakeLoki.start()) {
      create("dropping", loki, "drop");

      await()
          .atMost(TestTiming.seconds(40))
          .untilAsserted(
              () ->
                  assertThat(
                          SinkDeliveries.committed(cluster.bootstrapServers(), "dropping").values())
                      .hasSize(PARTITIONS)
                      .allMatch(o -> o == PER_PARTITION));
      Set<String> stored = SinkDeliveries.received(loki).keySet();
      long bytes = lineBytes(stored);
      double dropped = pluginMetric("dropping", "egress-budget-dropped-entries");
      LOG.info("drop: Loki stored {} bytes of {}, {} entries dropped", bytes, topicBytes, dropped);
      assertThat(bytes).isLessThan(budget() + overshoot());
      assertThat(stored.size() + (long) dropped).isEqualTo((long) PARTITIONS * PER_PARTITION);
      assertThat(usedToday("connect-dropping")).isEqualTo(bytes);
    }
  }

  @Test
  void aTaskThatCannotReadTheDaysUsePushesNothingAndStaysRunning() throws Exception {
    try (FakeLoki loki = FakeLoki.start()) {
      // nothing listens there: the Admin client's reads time out
      create("blind", loki, "pause", "127.0.0.1:9");

      await()
          .during(TestTiming.seconds(12))
          .atMost(TestTiming.seconds(20))
          .until(() -> loki.pushes().isEmpty());
      var status = cluster.send("GET", "connectors/blind/status", null);
      assertThat(JSON.readTree(status.body()).path("tasks").findValuesAsText("state"))
          .hasSize(2)
          .allMatch("RUNNING"::equals);
      assertThat(SinkDeliveries.committed(cluster.bootstrapServers(), "blind")).isEmpty();
      assertThat(pluginMetric("blind", "egress-budget-read-errors")).isPositive();
      cluster.send("DELETE", "connectors/blind", null);
    }
  }

  /** Today's use, summed over the group's committed offsets' metadata. */
  private static long usedToday(String group) throws Exception {
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    long sum = 0;
    for (String metadata :
        SinkDeliveries.committedMetadata(cluster.bootstrapServers(), group).values()) {
      DailyUsage usage = DailyUsage.parse(metadata);
      if (usage.date().equals(today)) {
        sum += usage.bytes();
      }
    }
    return sum;
  }

  /** The sum over the connector's tasks of one of its plugin metrics, through Connect's JMX. */
  private static double pluginMetric(String connector, String name) throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    double sum = 0;
    for (ObjectName bean :
        server.queryNames(new ObjectName("kafka.connect:connector=" + connector + ",*"), null)) {
      try {
        sum += ((Number) server.getAttribute(bean, name)).doubleValue();
      } catch (javax.management.AttributeNotFoundException e) {
        // another of the connector's metric groups
      }
    }
    return sum;
  }
}
