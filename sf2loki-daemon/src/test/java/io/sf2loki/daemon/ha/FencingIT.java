package io.sf2loki.daemon.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.testkit.TestTiming;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Epochs only grow and a stale leader cannot move a checkpoint (invariant 2), and losing is not
 * dying (invariant 3), with real processes: a deleted lease and a paused leader.
 */
class FencingIT {

  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration TTL = Duration.ofSeconds(3);
  private static final Duration RENEW = Duration.ofSeconds(1);

  @TempDir Path dir;
  private HaCluster cluster;

  @BeforeEach
  void start() throws Exception {
    cluster = HaCluster.start(dir);
  }

  @AfterEach
  void stop() {
    System.out.println(cluster.logs()); // kept in the surefire output for diagnosis
    cluster.close();
  }

  private static Map<String, String> checkpoints(Map<String, String> state) {
    Map<String, String> out = new java.util.TreeMap<>(state);
    out.remove("__fence_epoch__");
    return out;
  }

  @Test
  void deletedLeaseNeverResetsTheEpochAndTheLeaderKeepsCommitting() throws Exception {
    Files.writeString(cluster.statePath(), "{\"__fence_epoch__\": \"6\"}");
    HaCluster.Node node = cluster.node("solo", TTL, RENEW);
    DaemonProcess first = cluster.launch(node);
    await("leads at epoch 7, above the persisted 6")
        .atMost(TestTiming.seconds(60))
        .pollInterval(POLL)
        .until(() -> first.readyz().ready());
    assertThat(cluster.persistedEpoch()).hasValue(7);
    await().atMost(TestTiming.seconds(30)).until(() -> checkpoints(cluster.state()).size() >= 2);

    // Deleted under a running leader: it rewrites the lease and keeps leading at its epoch.
    Files.delete(cluster.leasePath());
    Map<String, String> before = checkpoints(cluster.state());
    await("the leader rewrites its lease and keeps committing")
        .atMost(TestTiming.seconds(20))
        .pollInterval(POLL)
        .until(
            () ->
                Files.exists(cluster.leasePath())
                    && !checkpoints(cluster.state()).equals(before)
                    && first.readyz().ready());
    assertThat(cluster.persistedEpoch()).hasValue(7);

    // Crashed with the lease deleted: the only epoch left is the store's 7.
    first.kill9();
    Files.deleteIfExists(cluster.leasePath());
    DaemonProcess second = cluster.launch(node);
    await("the restarted daemon leads again")
        .atMost(TestTiming.seconds(60))
        .pollInterval(POLL)
        .until(() -> second.readyz().ready());
    assertThat(cluster.persistedEpoch().orElseThrow()).isGreaterThanOrEqualTo(8);
    assertThat(second.metric("sf2loki_leader_epoch", "")).isGreaterThanOrEqualTo(8);
    Map<String, String> restarted = checkpoints(cluster.state());
    await("and keeps committing")
        .atMost(TestTiming.seconds(30))
        .pollInterval(POLL)
        .until(() -> !checkpoints(cluster.state()).equals(restarted));
    assertThat(second.isAlive()).isTrue();
    assertThat(cluster.persistedEpoch().orElseThrow()).isGreaterThanOrEqualTo(8);
  }

  @Test
  void pausedLeaderIsFencedOnResumeAndStandsByWithoutExiting() throws Exception {
    List<DaemonProcess> pair = cluster.pair(TTL, RENEW, HaCluster.EVENT_LOG_FILES);
    DaemonProcess paused = pair.get(0);
    DaemonProcess successor = pair.get(1);
    await("the leader ships")
        .atMost(TestTiming.seconds(30))
        .until(() -> cluster.loki().lines().size() >= 20);
    long pausedEpoch = cluster.persistedEpoch().orElseThrow();

    // Pause the leader while a push of its is held in Loki: it resumes with a delivered batch
    // to commit, whichever it notices first, the takeover or the push's answer.
    cluster.holdNextPush(Duration.ofSeconds(6));
    paused.sigstop();
    await("the standby takes over while the leader is paused beyond the ttl")
        .atMost(TTL.plus(RENEW).plus(TestTiming.seconds(10)))
        .pollInterval(POLL)
        .until(() -> successor.readyz().ready());
    long successorEpoch = cluster.persistedEpoch().orElseThrow();
    assertThat(successorEpoch).isGreaterThan(pausedEpoch);
    Map<String, String> taken = checkpoints(cluster.state());
    await("the successor commits")
        .atMost(TestTiming.seconds(20))
        .until(() -> !checkpoints(cluster.state()).equals(taken));

    try (CheckpointMonitor monitor = new CheckpointMonitor(cluster::state)) {
      paused.sigcont();
      await("the resumed leader's commit is fenced and it stands by")
          .atMost(TestTiming.seconds(20))
          .pollInterval(POLL)
          .until(paused::fencedAndStandingBy);
      System.out.println(
          "fenced commits of the resumed leader: "
              + paused.metric("sf2loki_fenced_commits_total", ""));
      // It stays alive and standing by while the successor keeps leading at its epoch.
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(3).plus(TestTiming.seconds(2)))
          .pollInterval(POLL)
          .until(
              () ->
                  paused.isAlive()
                      && paused.readyz().standby()
                      && successor.readyz().ready()
                      && cluster.persistedEpoch().orElseThrow() == successorEpoch);
      assertThat(paused.metric("sf2loki_leader", "")).isZero();
      assertThat(monitor.regressions()).isEmpty();
    }
  }
}
