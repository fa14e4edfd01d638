package io.sf2loki.daemon.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two daemons on one file lease and one file store: failover after a crash and after SIGTERM. */
class FailoverIT {

  private static final Duration POLL = Duration.ofMillis(100);

  @TempDir Path dir;
  private HaCluster cluster;

  @BeforeEach
  void start() throws Exception {
    cluster = HaCluster.start(dir);
  }

  @AfterEach
  void stop() throws Exception {
    System.out.println(cluster.logs()); // kept in the surefire output for diagnosis
    cluster.close();
  }

  @Test
  void killedLeaderIsReplacedWithinTtlAndEveryGeneratedRowArrives() throws Exception {
    Duration ttl = Duration.ofSeconds(3);
    Duration renew = Duration.ofSeconds(1);
    try (CheckpointMonitor monitor = new CheckpointMonitor(cluster::state)) {
      List<DaemonProcess> pair = cluster.pair(ttl, renew, HaCluster.EVENT_LOG_FILES);
      DaemonProcess leader = pair.get(0);
      DaemonProcess standby = pair.get(1);
      await("the leader ships")
          .atMost(TestTiming.seconds(30))
          .until(() -> cluster.loki().lines().size() >= 40);
      long epochBefore = cluster.persistedEpoch().orElseThrow();

      leader.kill9();
      long killedAt = System.nanoTime();
      await("the standby takes over within ttl + renew_interval + 2s")
          .atMost(ttl.plus(renew).plus(TestTiming.seconds(2)))
          .pollInterval(POLL)
          .until(() -> standby.readyz().ready());
      System.out.printf(
          "failover took %d ms after kill -9%n", (System.nanoTime() - killedAt) / 1_000_000);

      // Everything the org produced up to two activity ticks (two files each) after the takeover
      // arrives at least once.
      int atTakeover = cluster.producedFiles().size();
      await("two more ticks of the org's activity")
          .atMost(TestTiming.seconds(10))
          .pollInterval(POLL)
          .until(() -> cluster.producedFiles().size() >= atTakeover + 4);
      List<LogFileSpec> produced = cluster.producedFiles();
      await("every generated row is in Loki")
          .atMost(TestTiming.seconds(40))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> cluster.missingRows(produced).isEmpty());
      assertThat(cluster.persistedEpoch().orElseThrow()).isGreaterThan(epochBefore);
      assertThat(monitor.samples()).isGreaterThan(10);
      assertThat(monitor.regressions()).isEmpty();
      assertThat(standby.isAlive()).isTrue();
    }
  }

  @Test
  void terminatedLeaderReleasesTheLeaseAndExitsZeroAfterItsFinalCommits() throws Exception {
    // A ttl far above the expected handover: only a released lease explains a quick takeover.
    Duration ttl = Duration.ofSeconds(20);
    Duration renew = Duration.ofSeconds(1);
    try (CheckpointMonitor monitor = new CheckpointMonitor(cluster::state)) {
      List<DaemonProcess> pair = cluster.pair(ttl, renew, HaCluster.EVENT_LOG_FILES);
      DaemonProcess leader = pair.get(0);
      DaemonProcess standby = pair.get(1);
      await("the leader ships")
          .atMost(TestTiming.seconds(30))
          .until(() -> cluster.loki().lines().size() >= 40);

      System.out.println(java.time.Instant.now() + " SIGTERM to " + leader);
      leader.sigterm();
      long terminatedAt = System.nanoTime();
      await("the standby takes over within a few seconds")
          .atMost(TestTiming.seconds(10))
          .pollInterval(POLL)
          .until(() -> standby.readyz().ready());
      System.out.printf(
          "handover took %d ms after SIGTERM%n", (System.nanoTime() - terminatedAt) / 1_000_000);
      assertThat(leader.awaitExit(TestTiming.seconds(20))).isZero();
      assertThat(leader.log())
          .contains("stop requested; draining")
          .contains("Stopped[abandonedBatches=0]")
          .doesNotContain("commit refused")
          .contains("sf2loki stopped");
      List<LogFileSpec> produced = cluster.producedFiles();
      await("every generated row is in Loki")
          .atMost(TestTiming.seconds(40))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> cluster.missingRows(produced).isEmpty());
      assertThat(monitor.regressions()).isEmpty();
    }
  }
}
