package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.RecordingLeadershipListener;
import io.sf2loki.tck.ShardElection;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two replicas sharing two orgs over file_lease, on simulated time. */
class FileLeaseShardHandOverTest {

  static final List<String> SHARDS = List.of("x", "y");

  @TempDir Path dir;

  final SimulatedTime time =
      new SimulatedTime(Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sim"));
  FileLeaseShards election;
  final List<Contender> all = new ArrayList<>();
  final List<String> leaseAtShedDrain = new CopyOnWriteArrayList<>();

  /** One replica: a contender per shard. */
  Map<String, Contender> start(String identity) throws Exception {
    ShardElection.Replica replica = election.join(identity);
    Map<String, Contender> contenders = new LinkedHashMap<>();
    for (String shard : SHARDS) {
      RecordingLeadershipListener listener =
          new RecordingLeadershipListener(
              t -> {},
              t -> {
                if (t.isCurrent()) { // a drain that may commit: the lease must still be ours
                  leaseAtShedDrain.add(
                      identity + " drains " + shard + " while " + election.describeLease(shard));
                }
              });
      Contender c =
          Contender.start(
              time, identity + "/" + shard, replica.coordinator(shard, Optional.empty()), listener);
      contenders.put(shard, c);
      all.add(c);
    }
    replicas.put(identity, replica);
    return contenders;
  }

  final Map<String, ShardElection.Replica> replicas = new LinkedHashMap<>();

  static long leading(Map<String, Contender> replica) {
    return replica.values().stream().filter(Contender::isLeading).count();
  }

  @AfterEach
  void stop() throws Exception {
    all.forEach(Contender::requestStop);
    time.leave();
    for (Contender c : all) {
      c.stop();
    }
    election.close();
  }

  @Test
  void anOverQuotaReplicaDrainsItsLeastPreferredShardWhileHoldingItThenTheNewReplicaTakesIt()
      throws Exception {
    election = new FileLeaseShards(dir, time, SHARDS, 0);
    time.join();
    Map<String, Contender> a = start("a");
    time.sleep(Duration.ofSeconds(2));
    assertThat(leading(a)).isEqualTo(2); // alone: cap 2

    Map<String, Contender> b = start("b");
    time.awaitCondition(
        () -> leading(a) == 1 && leading(b) == 1, Duration.ofMinutes(2), Duration.ofSeconds(1));
    assertThat(leading(a)).isEqualTo(1);
    assertThat(leading(b)).isEqualTo(1);

    String shed = SHARDS.stream().filter(s -> b.get(s).isLeading()).findFirst().orElseThrow();
    RecordingLeadershipListener.Event lose =
        a.get(shed).listener().events().stream()
            .filter(e -> e.kind() == RecordingLeadershipListener.Kind.LOSE)
            .findFirst()
            .orElseThrow();
    assertThat(lose.currentDuringCall()).as("the shed term drains while current").isTrue();
    assertThat(leaseAtShedDrain).hasSize(1);
    assertThat(leaseAtShedDrain.get(0)).contains("holder=a");
    Term taken = b.get(shed).currentTerm().orElseThrow();
    assertThat(taken.epoch()).isGreaterThan(lose.term().epoch());
    assertThat(
            election
                .metrics("a")
                .get("sf2loki_shard_handovers_total")
                .tag("reason", "balance")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(election.metrics("a").get("sf2loki_shard_cap").gauge().value()).isEqualTo(1);
    assertThat(election.metrics("b").get("sf2loki_shard_replicas").gauge().value()).isEqualTo(2);
  }

  @Test
  void aKilledReplicasShardsAreLedAgainWithinTtlPlusRenewInterval() throws Exception {
    election = new FileLeaseShards(dir, time, SHARDS, 0);
    time.join();
    Map<String, Contender> a = start("a");
    time.sleep(Duration.ofSeconds(1));
    Map<String, Contender> b = start("b");
    time.awaitCondition(
        () -> leading(a) == 1 && leading(b) == 1, Duration.ofMinutes(2), Duration.ofSeconds(1));
    time.sleep(Duration.ofSeconds(7)); // an arbitrary point between renewals

    replicas.get("a").kill();
    a.values().forEach(Contender::requestStop);
    long killed = time.nanos();
    time.awaitCondition(() -> leading(b) == 2, Duration.ofMinutes(2), Duration.ofMillis(100));
    Duration took = Duration.ofNanos(time.nanos() - killed);

    assertThat(leading(b)).isEqualTo(2);
    assertThat(took).isLessThanOrEqualTo(election.ttl().plus(election.renewInterval()));
  }
}
