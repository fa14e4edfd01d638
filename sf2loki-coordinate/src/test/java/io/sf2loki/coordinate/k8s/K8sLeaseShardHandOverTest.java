package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.tck.Contender;
import io.sf2loki.tck.RecordingLeadershipListener;
import io.sf2loki.tck.ShardElection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two replicas sharing two orgs over k8s_lease, against the fabric8 mock API server (CRUD). */
class K8sLeaseShardHandOverTest {

  static final List<String> SHARDS = List.of("x", "y");

  @TempDir Path dir;

  final K8sLeaseFixture fixture;
  final K8sLeaseShards election;
  final List<Contender> all = new ArrayList<>();
  final Map<String, ShardElection.Replica> replicas = new LinkedHashMap<>();

  K8sLeaseShardHandOverTest() throws Exception {
    fixture = new K8sLeaseFixture();
    election = new K8sLeaseShards(Path.of("."), fixture.time, SHARDS, fixture.server.url("/"));
  }

  Map<String, Contender> start(String identity) throws Exception {
    ShardElection.Replica replica = election.join(identity);
    replicas.put(identity, replica);
    Map<String, Contender> contenders = new LinkedHashMap<>();
    for (String shard : SHARDS) {
      Contender c =
          Contender.start(
              fixture.time,
              identity + "/" + shard,
              replica.coordinator(shard, Optional.empty()),
              new RecordingLeadershipListener());
      contenders.put(shard, c);
      all.add(c);
    }
    return contenders;
  }

  static long leading(Map<String, Contender> replica) {
    return replica.values().stream().filter(Contender::isLeading).count();
  }

  @AfterEach
  void stop() throws Exception {
    all.forEach(Contender::requestStop);
    fixture.time.leave();
    for (Contender c : all) {
      c.stop();
    }
    fixture.close();
  }

  @Test
  void aNewReplicaGetsItsShareByHandOverAndAKilledOnesShardsMoveWithinTtlPlusRenew()
      throws Exception {
    fixture.time.join();
    Map<String, Contender> a = start("pod-a");
    fixture.time.sleep(Duration.ofSeconds(2));
    assertThat(leading(a)).isEqualTo(2);

    Map<String, Contender> b = start("pod-b");
    fixture.time.awaitCondition(
        () -> leading(a) == 1 && leading(b) == 1, Duration.ofMinutes(2), Duration.ofSeconds(1));
    assertThat(leading(a)).isEqualTo(1);
    assertThat(leading(b)).isEqualTo(1);
    String shed = SHARDS.stream().filter(s -> b.get(s).isLeading()).findFirst().orElseThrow();
    assertThat(a.get(shed).listener().events())
        .filteredOn(e -> e.kind() == RecordingLeadershipListener.Kind.LOSE)
        .first()
        .satisfies(e -> assertThat(e.currentDuringCall()).isTrue());
    assertThat(
            fixture
                .api
                .readNamespacedLease("sf2loki-leader-roster", "default")
                .execute()
                .getMetadata()
                .getAnnotations()
                .get(K8sLeaseRoster.ANNOTATION))
        .contains("pod-a")
        .contains("pod-b");

    replicas.get("pod-a").kill();
    a.values().forEach(Contender::requestStop);
    long killed = fixture.time.nanos();
    fixture.time.awaitCondition(
        () -> leading(b) == 2, Duration.ofMinutes(2), Duration.ofMillis(100));
    assertThat(leading(b)).isEqualTo(2);
    assertThat(Duration.ofNanos(fixture.time.nanos() - killed))
        .isLessThanOrEqualTo(election.ttl().plus(election.renewInterval()));
  }
}
