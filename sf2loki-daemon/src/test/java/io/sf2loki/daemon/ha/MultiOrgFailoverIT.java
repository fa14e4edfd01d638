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

/**
 * Two daemons, each running two orgs, on one file-lease directory: every org is a shard with its
 * own lease file and checkpoint document. The first daemon leads both shards; {@code kill -9} moves
 * both to the other within ttl + renew interval, each under a higher epoch of its own, and nothing
 * either org produced is lost.
 */
class MultiOrgFailoverIT {

  private static final Duration POLL = Duration.ofMillis(100);
  private static final String LEADS_BOTH = "ready\norg prod: ready\norg emea: ready";
  private static final String STANDS_BY_FOR_BOTH = "standby\norg prod: standby\norg emea: standby";

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

  private static boolean answers(DaemonProcess p, int status, String body) {
    DaemonProcess.Readyz r = p.readyz();
    return r.status() == status && r.body().strip().equals(body);
  }

  private long linesOf(String org) {
    return cluster.loki().entries().stream().filter(e -> org.equals(e.labels().get("org"))).count();
  }

  @Test
  void killingTheLeaderOfBothOrgsMovesBothShardsToTheOtherProcessAndLosesNothing()
      throws Exception {
    Duration ttl = Duration.ofSeconds(3);
    Duration renew = Duration.ofSeconds(1);
    try (CheckpointMonitor prodState = new CheckpointMonitor(() -> cluster.state("prod"));
        CheckpointMonitor emeaState = new CheckpointMonitor(() -> cluster.state("emea"))) {
      List<DaemonProcess> pair = pair(ttl, renew);
      DaemonProcess a = pair.get(0);
      DaemonProcess b = pair.get(1);
      await("both orgs ship")
          .atMost(TestTiming.seconds(30))
          .until(() -> linesOf("prod") >= 40 && linesOf("emea") >= 40);
      assertThat(a.metric("sf2loki_leader", "org=\"emea\"")).isEqualTo(1);
      assertThat(b.metric("sf2loki_leader", "org=\"emea\"")).isZero();
      long prodEpoch = Long.parseLong(cluster.state("prod").get("__fence_epoch__"));
      long emeaEpoch = Long.parseLong(cluster.state("emea").get("__fence_epoch__"));

      a.kill9();
      long killedAt = System.nanoTime();
      await("node-b leads both orgs within ttl + renew_interval + 2s")
          .atMost(ttl.plus(renew).plus(TestTiming.seconds(2)))
          .pollInterval(POLL)
          .until(() -> answers(b, 200, LEADS_BOTH));
      System.out.printf(
          "both shards moved %d ms after kill -9%n", (System.nanoTime() - killedAt) / 1_000_000);

      int prodAtTakeover = cluster.producedFiles().size();
      int emeaAtTakeover = cluster.secondOrg().logFiles().size();
      await("two more ticks of both orgs' activity")
          .atMost(TestTiming.seconds(10))
          .pollInterval(POLL)
          .until(
              () ->
                  cluster.producedFiles().size() >= prodAtTakeover + 4
                      && cluster.secondOrg().logFiles().size() >= emeaAtTakeover + 4);
      List<LogFileSpec> prod = cluster.producedFiles();
      List<LogFileSpec> emea = cluster.secondOrg().logFiles();
      await("every row of both orgs is in Loki")
          .atMost(TestTiming.seconds(40))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () ->
                  cluster.missingRows(prod).isEmpty()
                      && cluster.missingRows(cluster.secondOrg(), emea).isEmpty());
      assertThat(Long.parseLong(cluster.state("prod").get("__fence_epoch__")))
          .isGreaterThan(prodEpoch);
      assertThat(Long.parseLong(cluster.state("emea").get("__fence_epoch__")))
          .isGreaterThan(emeaEpoch);
      assertThat(b.metric("sf2loki_leader", "org=\"prod\"")).isEqualTo(1);
      assertThat(prodState.regressions()).isEmpty();
      assertThat(emeaState.regressions()).isEmpty();
      assertThat(cluster.state()).as("the configured document is never written").isEmpty();
    }
  }

  /** node-a leading both orgs, then node-b standing by for both. */
  private List<DaemonProcess> pair(Duration ttl, Duration renew) throws Exception {
    DaemonProcess a = cluster.launch(cluster.twoOrgNode("node-a", ttl, renew));
    await("node-a leads both orgs")
        .atMost(TestTiming.seconds(60))
        .pollInterval(POLL)
        .until(() -> answers(a, 200, LEADS_BOTH));
    DaemonProcess b = cluster.launch(cluster.twoOrgNode("node-b", ttl, renew));
    await("node-b stands by for both")
        .atMost(TestTiming.seconds(60))
        .pollInterval(POLL)
        .until(() -> answers(b, 503, STANDS_BY_FOR_BOTH));
    return List.of(a, b);
  }

  @Test
  void aTerminatedLeaderDrainsBothOrgsReleasesBothLeasesAndExitsZero() throws Exception {
    // A ttl far above the expected handover: only released leases explain a quick takeover.
    Duration ttl = Duration.ofSeconds(20);
    Duration renew = Duration.ofSeconds(1);
    List<DaemonProcess> pair = pair(ttl, renew);
    DaemonProcess a = pair.get(0);
    DaemonProcess b = pair.get(1);
    await("both orgs ship")
        .atMost(TestTiming.seconds(30))
        .until(() -> linesOf("prod") >= 40 && linesOf("emea") >= 40);

    a.sigterm();
    await("node-b leads both orgs within a few seconds")
        .atMost(TestTiming.seconds(10))
        .pollInterval(POLL)
        .until(() -> answers(b, 200, LEADS_BOTH));

    assertThat(a.awaitExit(TestTiming.seconds(20))).isZero();
    assertThat(a.log())
        .contains("org=prod: released lease")
        .contains("org=emea: released lease")
        .contains("sf2loki stopped");
    List<LogFileSpec> prod = cluster.producedFiles();
    List<LogFileSpec> emea = cluster.secondOrg().logFiles();
    await("every row of both orgs is in Loki")
        .atMost(TestTiming.seconds(40))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                cluster.missingRows(prod).isEmpty()
                    && cluster.missingRows(cluster.secondOrg(), emea).isEmpty());
  }
}
