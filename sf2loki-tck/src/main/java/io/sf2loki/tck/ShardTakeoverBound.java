package io.sf2loki.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.NamedThreadFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The takeover bound with shards: three replicas share ten shards at cap 4 (4 + 3 + 3), and the
 * busiest is killed again and again at different phases between the renewals. Where its roster
 * entry outlives one of its leases, the survivors have room for only part of its shards until that
 * entry expires and their cap rises. Every one of its shards must still be led again within ttl +
 * renew interval of the kill, as for one lease, plus the claim itself ({@link #claimAllowance}) and
 * one short retry (a twentieth of a renew interval) when two of a survivor's shards asked in the
 * same instant and the place the first took was given back.
 *
 * @param <E> the backend's shard adapter
 */
@Timeout(120)
public abstract class ShardTakeoverBound<E extends ShardElection> {

  /** The shards: ten, so three replicas hold 4 + 3 + 3 at cap 4. */
  protected static final List<String> SHARDS =
      IntStream.rangeClosed(1, 10).mapToObj(i -> "o" + i).toList();

  private static final int ROUNDS = 12;

  private final SimulatedTime time =
      new SimulatedTime(
          Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sf2loki-tck-takeover"));
  private final List<Contender> all = new ArrayList<>();
  private final List<Contender> killed = new ArrayList<>();
  private final Map<String, ShardElection.Replica> replicas = new HashMap<>();
  private final Map<String, Map<String, Contender>> contenders = new LinkedHashMap<>();
  private E election;

  /** A new election of {@code shards} with slack 0 (leases nobody holds, no roster). */
  protected abstract E newElection(SimulatedTime time, List<String> shards) throws Exception;

  /**
   * How long a claim takes on simulated time beyond the poll that starts it: none for a backend
   * whose claim is one write; a file_lease claim's verify pause, twice when its attempt waited for
   * a racing claim of the same replica to resolve.
   */
  protected Duration claimAllowance() {
    return Duration.ZERO;
  }

  @AfterEach
  void stopAll() throws Exception {
    all.forEach(Contender::requestStop);
    for (Contender c : killed) {
      c.awaitEnded(time); // its campaign may have ended on a transport fault, a transient one
    }
    time.leave();
    for (Contender c : all) {
      if (!killed.contains(c)) {
        c.stop();
      }
    }
    if (election != null) {
      election.close();
    }
  }

  @Test
  void aKilledReplicasShardsAreLedAgainWithinTtlPlusRenewIntervalWhileTheSurvivorsAreAtTheirCap()
      throws Exception {
    election = newElection(time, SHARDS);
    Duration bound =
        election
            .ttl()
            .plus(election.renewInterval())
            .plus(election.renewInterval().dividedBy(20))
            .plus(claimAllowance());
    time.join();
    int next = 0;
    for (; next < 3; next++) {
      start("r" + next);
      time.sleep(Duration.ofSeconds(1));
    }
    for (int round = 0; round < ROUNDS; round++) {
      assertThat(time.awaitCondition(this::balanced, Duration.ofMinutes(10), Duration.ofSeconds(1)))
          .as("balanced before round %d: %s", round, spread())
          .isTrue();
      // a different phase between the renewals each round
      time.sleep(election.renewInterval().multipliedBy(31 * round + 7).dividedBy(100));
      String busiest =
          contenders.keySet().stream()
              .max(Comparator.comparingInt(r -> led(r).size()))
              .orElseThrow();
      List<String> orphaned = led(busiest);
      replicas.remove(busiest).kill();
      Collection<Contender> dead = contenders.remove(busiest).values();
      dead.forEach(Contender::requestStop);
      killed.addAll(dead);
      long killed = time.nanos();
      Map<String, Duration> ledAgain = new HashMap<>();
      time.awaitCondition(
          () -> {
            for (String shard : orphaned) {
              if (!ledAgain.containsKey(shard)
                  && contenders.values().stream().anyMatch(c -> c.get(shard).isLeading())) {
                ledAgain.put(shard, Duration.ofNanos(time.nanos() - killed));
              }
            }
            return ledAgain.size() == orphaned.size();
          },
          Duration.ofMinutes(2),
          Duration.ofMillis(100));
      assertThat(ledAgain)
          .as("round %d: all of %s's shards %s led again", round, busiest, orphaned)
          .containsOnlyKeys(orphaned);
      assertThat(ledAgain.values())
          .as(
              "round %d, %s killed leading %s, led again after %s",
              round, busiest, orphaned, ledAgain)
          .allMatch(d -> d.compareTo(bound) <= 0);
      start("r" + next++);
    }
  }

  private void start(String identity) throws Exception {
    ShardElection.Replica replica = election.join(identity);
    Map<String, Contender> byShard = new LinkedHashMap<>();
    for (String shard : SHARDS) {
      Contender c =
          Contender.start(
              time, identity + "/" + shard, replica.coordinator(shard, Optional.empty()));
      byShard.put(shard, c);
      all.add(c);
    }
    replicas.put(identity, replica);
    contenders.put(identity, byShard);
  }

  private List<String> led(String identity) {
    return contenders.get(identity).entrySet().stream()
        .filter(e -> e.getValue().isLeading())
        .map(Map.Entry::getKey)
        .toList();
  }

  private boolean balanced() {
    int cap = (SHARDS.size() + contenders.size() - 1) / contenders.size();
    boolean ledOnce =
        SHARDS.stream()
            .allMatch(
                shard ->
                    contenders.values().stream().filter(c -> c.get(shard).isLeading()).count()
                        == 1);
    return ledOnce && contenders.keySet().stream().allMatch(r -> led(r).size() <= cap);
  }

  private String spread() {
    StringBuilder s = new StringBuilder();
    contenders.keySet().forEach(r -> s.append(r).append('=').append(led(r)).append(' '));
    return s.toString();
  }
}
