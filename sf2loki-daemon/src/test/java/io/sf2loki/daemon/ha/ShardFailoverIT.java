package io.sf2loki.daemon.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.daemon.ha.ShardCluster.Leases;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Daemon processes running several orgs, each org a shard with a lease of its own, under {@code
 * kill -9} and restarts: after every step each shard is led by exactly one live process within ttl
 * + renew interval (a dead leader's shards under higher epochs of their own), no shard's epoch ever
 * falls, every live process leads at most ⌈M/N⌉ + slack shards once balancing has had its few renew
 * intervals (N the live processes), and every row every org produced arrives, re-sent at most
 * {@link ShardCluster#RESEND_PER_TERM} entries per ended term.
 */
class ShardFailoverIT {

  private static final Duration TTL = Duration.ofSeconds(3);
  private static final Duration RENEW = Duration.ofSeconds(1);
  private static final Duration POLL = Duration.ofMillis(100);

  @TempDir Path dir;
  private ShardCluster cluster;
  private final List<CheckpointMonitor> monitors = new ArrayList<>();

  private void start(Leases leases, int orgs) throws Exception {
    cluster = ShardCluster.start(dir, leases, orgs, TTL, RENEW);
    for (String shard : cluster.shards()) {
      monitors.add(new CheckpointMonitor(() -> cluster.cluster().state(shard)));
    }
  }

  @AfterEach
  void stop() {
    monitors.forEach(CheckpointMonitor::close);
    if (cluster != null) {
      System.out.println(cluster.cluster().logs()); // kept in the surefire output for diagnosis
      cluster.close();
    }
  }

  @Test
  void underK8sLeaseKillingTheLeaderOfEveryShardMovesThemAllToTheOtherProcess() throws Exception {
    start(Leases.K8S_LEASE, 2);
    cluster.launch("node-a");
    ShardOwnership first = settled("node-a leads both orgs", TestTiming.seconds(60));
    cluster.launch("node-b");
    settled("node-b takes its share", TestTiming.seconds(60));
    shipping();

    Killed killed = kill(ShardOwnership::busiest);

    String survivor = killed.victim().equals("node-a") ? "node-b" : "node-a";
    assertThat(killed.after().shardsOf(survivor)).isEqualTo(cluster.shards());
    nothingLostAndResendsBounded(first);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Leases.class)
  void threeProcessesFourOrgsKillTwoRestartOneEveryShardLedOnceNothingLost(Leases leases)
      throws Exception {
    start(leases, 4);
    for (String name : List.of("node-a", "node-b", "node-c")) {
      cluster.launch(name);
    }
    ShardOwnership start = settled("every shard has a leader", TestTiming.seconds(60));
    shipping();

    Killed first = kill(ShardOwnership::busiest);
    Killed second = kill(ShardOwnership::busiest);
    cluster.launch(first.victim());
    ShardOwnership restarted = settled(first.victim() + " is back", TestTiming.seconds(60));
    for (String shard : cluster.shards()) {
      assertThat(restarted.epochOf(shard))
          .as(shard)
          .isGreaterThanOrEqualTo(second.after().epochOf(shard));
    }
    nothingLostAndResendsBounded(start);
  }

  /**
   * Waits until every live process answers and every shard has exactly one leader ({@link #led}),
   * then until balancing has brought every live process within ⌈M/N⌉ + slack shards, which it must
   * do within {@link ShardCluster#spreadBound()}: the first process up took every shard and sheds
   * one per renew interval, a restarted one gets its share by hand-over.
   */
  private ShardOwnership settled(String what, Duration within) {
    led(what, within);
    long from = System.nanoTime();
    AtomicReference<ShardOwnership> seen = new AtomicReference<>();
    await(what + ": every process within ⌈M/N⌉ + slack")
        .atMost(TestTiming.scaled(cluster.spreadBound()).plus(TestTiming.seconds(2)))
        .pollInterval(POLL)
        .until(
            () -> {
              seen.set(cluster.ownership());
              return seen.get().spread(ShardCluster.SLACK);
            });
    ShardOwnership spread = seen.get();
    System.out.printf(
        "%s: spread %s (cap %d) %d ms after every shard was led%n",
        what,
        spread.shardsPerReplica(),
        spread.cap(ShardCluster.SLACK),
        Duration.ofNanos(System.nanoTime() - from).toMillis());
    assertThat(spread.shardsPerReplica().values())
        .as("shards per replica")
        .allMatch(held -> held <= spread.cap(ShardCluster.SLACK));
    assertThat(spread.shardsPerReplica().values().stream().mapToInt(Integer::intValue).sum())
        .as("every shard led once")
        .isEqualTo(cluster.shards().size());
    return spread;
  }

  /** Waits until every live process answers and every shard has exactly one leader. */
  private ShardOwnership led(String what, Duration within) {
    AtomicReference<ShardOwnership> seen = new AtomicReference<>();
    await(what)
        .atMost(within)
        .pollInterval(POLL)
        .until(
            () -> {
              seen.set(cluster.ownership());
              return seen.get().settled();
            });
    ShardOwnership led = seen.get();
    System.out.println(what + ": " + led);
    return led;
  }

  /** Waits until every org has shipped a few files' rows. */
  private void shipping() {
    await("every org ships")
        .atMost(TestTiming.seconds(30))
        .pollInterval(POLL)
        .until(
            () ->
                cluster.shards().stream()
                    .allMatch(
                        org ->
                            cluster.cluster().loki().entries().stream()
                                    .filter(e -> org.equals(e.labels().get("org")))
                                    .count()
                                >= 40));
  }

  /** A {@code kill -9} step: whom it killed and who leads what once every shard is led again. */
  private record Killed(String victim, ShardOwnership after) {}

  /**
   * {@code kill -9} of the process {@code pick} chooses from a poll just before it, which must lead
   * shards; within ttl + renew interval (+ 2 s) every shard is led by exactly one live process
   * again, each of the victim's under a higher epoch, no other one under a lower one. A file-lease
   * claim abandoned meanwhile (its write outlasted the verify pause on a starved machine) holds the
   * lease off for one more ttl, as documented.
   */
  private Killed kill(Function<ShardOwnership, String> pick) throws Exception {
    ShardOwnership before = settled("every shard is led before the kill", TestTiming.seconds(30));
    String victim = pick.apply(before);
    List<String> moving = before.shardsOf(victim);
    assertThat(moving).as("%s leads shards", victim).isNotEmpty();
    long abandoned = cluster.abandonedClaims();
    cluster.kill9(victim);
    long killedAt = System.nanoTime();
    Duration bound = cluster.takeoverBound().plus(TestTiming.seconds(2));
    ShardOwnership after =
        led("the shards of " + victim + " are led again", bound.plus(cluster.ttl()));
    Duration took = Duration.ofNanos(System.nanoTime() - killedAt);
    long abandonedNow = cluster.abandonedClaims() - abandoned;
    System.out.printf(
        "%s: %s moved within %d ms of kill -9 (%d claims abandoned)%n",
        cluster, moving, took.toMillis(), abandonedNow);
    assertThat(took).isLessThanOrEqualTo(abandonedNow > 0 ? bound.plus(cluster.ttl()) : bound);
    for (String shard : cluster.shards()) {
      if (moving.contains(shard)) {
        assertThat(after.epochOf(shard)).as(shard).isGreaterThan(before.epochOf(shard));
      } else {
        assertThat(after.epochOf(shard)).as(shard).isGreaterThanOrEqualTo(before.epochOf(shard));
      }
    }
    settled(victim + " is gone", TestTiming.seconds(10));
    return new Killed(victim, after);
  }

  /**
   * Every row each org produced up to two activity ticks from now is in Loki; no document's epoch
   * or watermark ever fell; Loki dropped at most {@link ShardCluster#RESEND_PER_TERM} re-sent
   * entries per term ended since {@code start}; no process registered a meter twice (Micrometer's
   * warning).
   */
  private void nothingLostAndResendsBounded(ShardOwnership start) throws Exception {
    int produced = cluster.producedFileCount();
    await("two more ticks of every org's activity")
        .atMost(TestTiming.seconds(10))
        .pollInterval(POLL)
        .until(() -> cluster.producedFileCount() >= produced + 4 * cluster.shards().size());
    Map<String, List<LogFileSpec>> files = cluster.producedFiles();
    await("every row of every org is in Loki")
        .atMost(TestTiming.seconds(40))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> cluster.missingRows(files).isEmpty());
    long endedTerms = 0;
    for (Map.Entry<String, Long> e : cluster.storedEpochs().entrySet()) {
      endedTerms += e.getValue() - start.epochOf(e.getKey());
    }
    System.out.printf(
        "%s: %d entries re-sent over %d ended terms%n", cluster, cluster.resent(), endedTerms);
    assertThat(cluster.resent()).isLessThanOrEqualTo(endedTerms * ShardCluster.RESEND_PER_TERM);
    for (CheckpointMonitor monitor : monitors) {
      assertThat(monitor.regressions()).isEmpty();
    }
    assertThat(cluster.cluster().logs())
        .as("every meter of every org registered once")
        .doesNotContain("has been already registered");
  }
}
