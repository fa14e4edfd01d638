package io.sf2loki.daemon.ha;

import static io.sf2loki.daemon.bench.BenchConsole.load;
import static io.sf2loki.daemon.bench.BenchConsole.say;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.sf2loki.daemon.bench.BenchConsole;
import io.sf2loki.daemon.ha.ShardCluster.Leases;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.LoggerFactory;

/**
 * How long a dead replica's shards take to be led again, end to end, against the floor ttl + renew
 * interval as configured, and how evenly the shards spread over the replicas after each churn step.
 * Not a test; run with {@code just bench-failover [key=value ...]}:
 *
 * <ul>
 *   <li>{@code leases=both}: {@code file_lease} | {@code k8s_lease} (the fabric8 CRUD mock API
 *       server in this JVM) | {@code both}
 *   <li>{@code processes=3} daemon processes, each running every one of {@code orgs=4} orgs (each a
 *       shard with its own lease)
 *   <li>{@code kills=6} rounds; {@code ttl=3s} (file_lease {@code ttl}, k8s_lease {@code
 *       lease_duration}) and {@code renew=1s} ({@code renew_interval})
 * </ul>
 *
 * Each round waits until every shard has exactly one leader and every process is within its cap
 * ⌈M/N⌉ + slack, sends {@code kill -9} to the process leading the most shards and times, for each
 * of its shards, from the kill to the first {@code /readyz} of a live process saying it leads that
 * shard (every live process polled every 20 ms), then until every survivor is within its cap; then
 * it restarts the killed process and times from the restart until the spread is back within the
 * cap. After the rounds it scales up (one more process) and down again (SIGTERM to the busiest
 * process), timing each until the spread is within the new cap. After each step it records the
 * shards per live process. At the end every row every org produced must be in the fake Loki.
 */
public final class ShardFailoverBenchmark {

  private static final Duration POLL = Duration.ofMillis(20);
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private final int processes;
  private final int orgs;
  private final int kills;
  private final Duration ttl;
  private final Duration renew;

  private ShardFailoverBenchmark(Map<String, String> o) {
    processes = Integer.parseInt(o.getOrDefault("processes", "3"));
    orgs = Integer.parseInt(o.getOrDefault("orgs", "4"));
    kills = Integer.parseInt(o.getOrDefault("kills", "6"));
    ttl = seconds(o.getOrDefault("ttl", "3s"));
    renew = seconds(o.getOrDefault("renew", "1s"));
  }

  private static Duration seconds(String v) {
    return Duration.ofMillis(Math.round(Double.parseDouble(v.replace("s", "")) * 1000));
  }

  public static void main(String[] args) throws Exception {
    ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
    Map<String, String> options = BenchConsole.options(args);
    ShardFailoverBenchmark bench = new ShardFailoverBenchmark(options);
    BenchConsole.header("bench-failover", options);
    String leases = options.getOrDefault("leases", "both");
    boolean ok = true;
    for (Leases l : Leases.values()) {
      if (leases.equals("both") || leases.equalsIgnoreCase(l.name())) {
        ok &= bench.run(l);
      }
    }
    System.exit(ok ? 0 : 1);
  }

  private boolean run(Leases leases) throws Exception {
    Path fallback = Files.createTempDirectory("sf2loki-bench-failover-");
    try (ShardCluster cluster = ShardCluster.start(fallback, leases, orgs, ttl, renew)) {
      try {
        return measure(cluster, leases);
      } catch (RuntimeException | AssertionError e) {
        say("FAILED " + leases + ": " + e);
        say(cluster.cluster().logs());
        return false;
      }
    }
  }

  private boolean measure(ShardCluster cluster, Leases leases) throws Exception {
    ChurnFigures churn = new ChurnFigures();
    long startedAt = System.nanoTime();
    for (int i = 0; i < processes; i++) {
      cluster.launch("node-" + (char) ('a' + i));
    }
    churn.record("cold start", spread(cluster, "cold start", startedAt), cluster.leaders());
    List<Long> perShard = new ArrayList<>();
    List<Long> perKill = new ArrayList<>();
    for (int round = 1; round <= kills; round++) {
      ShardOwnership before = until(cluster, "every shard is led before round " + round);
      String victim = before.busiest();
      List<String> moving = before.shardsOf(victim);
      long killedAt = System.nanoTime();
      cluster.kill9(victim);
      Map<String, Long> ledAgain = ledAgain(cluster, moving, killedAt, round);
      perShard.addAll(ledAgain.values());
      perKill.add(ledAgain.values().stream().mapToLong(Long::longValue).max().orElseThrow());
      churn.record("kill -9", spread(cluster, "kill " + round, killedAt), cluster.leaders());
      say(
          String.format(
              Locale.ROOT,
              "%s round %d: kill -9 %s (leading %s of %s): led again after %s ms, then %s;"
                  + " load %s",
              leases,
              round,
              victim,
              moving,
              before.shardsPerReplica(),
              ledAgain,
              cluster.leaders().shardsPerReplica(),
              load()));
      long restartedAt = System.nanoTime();
      cluster.launch(victim);
      churn.record("restart", spread(cluster, victim + " is back", restartedAt), cluster.leaders());
    }
    long scaledAt = System.nanoTime();
    cluster.launch("node-" + (char) ('a' + processes));
    churn.record("scale up", spread(cluster, "scale up", scaledAt), cluster.leaders());
    String leaving = cluster.leaders().busiest();
    scaledAt = System.nanoTime();
    cluster.sigterm(leaving);
    churn.record("scale down", spread(cluster, "scale down", scaledAt), cluster.leaders());
    Map<String, List<LogFileSpec>> files = cluster.producedFiles();
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    int lost = cluster.missingRows(files).size();
    while (lost > 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
      lost = cluster.missingRows(files).size();
    }
    long floor = ttl.plus(renew).toMillis();
    say(
        String.format(
            Locale.ROOT,
            "RESULT %s, %d processes x %d orgs, floor ttl %d ms + renew_interval %d ms = %d ms:"
                + " a shard led again after median %s, max %s (n=%d); all of a dead replica's"
                + " shards after median %s, max %s (n=%d); %d rows lost, %d re-sent",
            leases,
            processes,
            orgs,
            ttl.toMillis(),
            renew.toMillis(),
            floor,
            figure(ChurnFigures.median(perShard), floor),
            figure(ChurnFigures.max(perShard), floor),
            perShard.size(),
            figure(ChurnFigures.median(perKill), floor),
            figure(ChurnFigures.max(perKill), floor),
            perKill.size(),
            lost,
            cluster.resent()));
    for (String line : churn.summary(renew.toMillis())) {
      say("RESULT " + leases + " spread, " + line);
    }
    return lost == 0;
  }

  /** Polls until each of {@code moving} is led by a live process: per shard, ms since the kill. */
  private static Map<String, Long> ledAgain(
      ShardCluster cluster, List<String> moving, long killedAt, int round) {
    Map<String, Long> ledAgain = new TreeMap<>();
    while (ledAgain.size() < moving.size()) {
      if (System.nanoTime() - killedAt > DEADLINE.toNanos()) {
        throw new IllegalStateException(
            "round " + round + ": " + moving + " not led again within " + DEADLINE);
      }
      ShardOwnership now = cluster.leaders();
      long at = System.nanoTime() - killedAt;
      for (String shard : moving) {
        if (!now.leaders().getOrDefault(shard, Map.of()).isEmpty()) {
          ledAgain.putIfAbsent(shard, at / 1_000_000);
        }
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
    return ledAgain;
  }

  /**
   * Polls until every live process answers, every shard has exactly one leader and no process leads
   * more than ⌈M/N⌉ + slack: ms since {@code since}.
   */
  private static long spread(ShardCluster cluster, String what, long since) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      if (cluster.leaders().spread(ShardCluster.SLACK)) {
        return (System.nanoTime() - since) / 1_000_000;
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
    throw new IllegalStateException(
        what + ": not within the cap within " + DEADLINE + "; " + cluster.leaders());
  }

  /** Polls until every live process answers and every shard has exactly one leader. */
  private static ShardOwnership until(ShardCluster cluster, String what) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      ShardOwnership now = cluster.leaders();
      if (now.settled()) {
        return now;
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
    throw new IllegalStateException(what + ": not within " + DEADLINE + "; " + cluster.leaders());
  }

  private static String figure(long millis, long floor) {
    return String.format(Locale.ROOT, "%,d ms (%.2fx)", millis, (double) millis / floor);
  }
}
