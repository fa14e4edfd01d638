package io.sf2loki.coordinate.balance;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.ShardBalance;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ShardQuotaTest {

  static final Duration TTL = Duration.ofSeconds(30);
  static final Duration RENEW = Duration.ofSeconds(10);
  static final List<String> TEN = IntStream.rangeClosed(1, 10).mapToObj(i -> "org" + i).toList();

  final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T12:00:00Z"));
  final MemoryRoster roster = new MemoryRoster();
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  ShardQuota quota(String replica, List<String> shards, int slack) {
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            clock,
            () -> clock.instant().toEpochMilli() * 1_000_000L,
            Optional.empty(),
            metrics,
            Map.of());
    // the roster's I/O on the calling thread: each call is done when the quota's method returns
    return new ShardQuota(replica, shards, slack, roster, TTL, RENEW, env, Runnable::run);
  }

  @Test
  void capIsTheCeilingOfShardsOverReplicasPlusSlack() {
    assertThat(ShardQuota.cap(10, 3, 0)).isEqualTo(4);
    assertThat(ShardQuota.cap(10, 5, 0)).isEqualTo(2);
    assertThat(ShardQuota.cap(10, 1, 0)).isEqualTo(10);
    assertThat(ShardQuota.cap(2, 3, 0)).isEqualTo(1);
    assertThat(ShardQuota.cap(10, 3, 1)).isEqualTo(5);
    assertThat(ShardQuota.cap(10, 0, 0)).isEqualTo(10);
  }

  @Test
  void theReplicasCountedAreTheLiveRosterMembersAndItself() {
    roster.put("b", clock.instant().plus(TTL));
    roster.put("c", clock.instant().plus(TTL));
    roster.put("gone", clock.instant().minusSeconds(1));
    ShardQuota a = quota("a", TEN, 0);
    a.tick();
    assertThat(a.replicas()).containsExactlyInAnyOrder("a", "b", "c");
    assertThat(a.cap()).isEqualTo(4);
    assertThat(roster.document().members()).containsOnlyKeys("a", "b", "c");
  }

  @Test
  void aRosterNeverReadCountsOnlyThisReplica() {
    roster.failing(true);
    roster.put("b", clock.instant().plus(TTL));
    ShardQuota a = quota("a", TEN, 0);
    a.tick();
    assertThat(a.cap()).isEqualTo(10);
    assertThat(metrics.get("sf2loki_shard_roster_failures_total").counter().count()).isEqualTo(1);
  }

  @Test
  void aFailingRosterKeepsTheLastKnownReplicasAndCountsEachFailure() {
    roster.put("b", clock.instant().plus(Duration.ofHours(1)));
    ShardQuota a = quota("a", TEN, 0);
    a.tick();
    roster.failing(true);
    clock.advance(RENEW);
    a.tick();
    clock.advance(RENEW);
    a.tick();
    assertThat(a.cap()).isEqualTo(5);
    assertThat(metrics.get("sf2loki_shard_roster_failures_total").counter().count()).isEqualTo(2);
    assertThat(metrics.get("sf2loki_shard_replicas").gauge().value()).isEqualTo(2);
  }

  @Test
  void theRosterIsHeartbeatedAtMostOncePerRenewInterval() {
    ShardQuota a = quota("a", TEN, 0);
    a.tick();
    a.tick();
    clock.advance(RENEW.minusMillis(1));
    a.tick();
    assertThat(roster.writes).isEqualTo(1);
    clock.advance(Duration.ofMillis(1));
    a.tick();
    assertThat(roster.writes).isEqualTo(2);
  }

  @Test
  void reservationsNeverExceedTheCapEvenWhenTakenConcurrently() throws Exception {
    roster.put("b", clock.instant().plus(Duration.ofHours(1)));
    ShardQuota a = quota("a", TEN, 0); // cap 5
    a.tick();
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger granted = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (String shard : TEN) {
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                // every shard asks twice: the second round sees all ten wanting
                for (int i = 0; i < 2; i++) {
                  a.reserve(shard).ifPresent(r -> granted.incrementAndGet());
                }
              });
      t.start();
      threads.add(t);
    }
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    assertThat(granted.get()).isLessThanOrEqualTo(5);
    for (String shard : Rendezvous.preference("a", TEN)) {
      a.reserve(shard).ifPresent(r -> granted.incrementAndGet());
    }
    assertThat(granted.get()).isEqualTo(5);
  }

  @Test
  void aLostAttemptReturnsItsReservation() {
    ShardQuota a = quota("a", List.of("x", "y"), 0);
    roster.put("b", clock.instant().plus(Duration.ofHours(1)));
    a.tick(); // cap 1
    ShardBalance.Reservation x = a.reserve("x").orElseThrow();
    assertThat(a.reserve("y")).isEmpty();
    x.cancel();
    assertThat(a.reserve("y")).isPresent();
  }

  @Test
  void aReplicaWithRoomTakesAFreeShardAtOnceWhateverItsPreference() {
    roster.put("b", clock.instant().plus(Duration.ofHours(1)));
    List<String> shards = Rendezvous.preference("a", List.of("s1", "s2", "s3", "s4"));
    ShardQuota a = quota("a", shards, 0);
    a.tick(); // cap 2
    a.reserve(shards.get(0)).orElseThrow().won();
    ShardBalance.Reservation second = a.reserve(shards.get(1)).orElseThrow();
    second.won();
    assertThat(a.reserve(shards.get(2))).isEmpty(); // at the cap
    second.cancel(); // room for one
    // the least preferred asks first and gets it: waiting for the preferred one's coordinator to
    // poll could hold an orphaned shard past ttl + renew interval
    assertThat(a.reserve(shards.get(3))).isPresent();
    assertThat(a.reserve(shards.get(2))).isEmpty();
  }

  @Test
  void anExpiredEntryStopsCountingOnceAReadBeforeTheNextReservationConfirmsItGone() {
    roster.put("b", clock.instant().plus(Duration.ofSeconds(5)));
    ShardQuota a = quota("a", List.of("x", "y"), 0);
    a.tick(); // cap 1
    a.reserve("x").orElseThrow().won();
    clock.advance(Duration.ofSeconds(5)); // b's entry expired; b never heartbeated again
    assertThat(a.reserve("y")).isPresent();
    assertThat(a.replicas()).containsExactly("a");
  }

  @Test
  void anEntryThatExpiredSinceTheLastReadKeepsCountingWhileReadsFail() {
    roster.put("b", clock.instant().plus(Duration.ofSeconds(5)));
    ShardQuota a = quota("a", TEN, 0);
    a.tick();
    roster.failing(true);
    clock.advance(Duration.ofSeconds(6));
    TEN.subList(0, 5).forEach(shard -> a.reserve(shard).orElseThrow().won());
    assertThat(a.reserve("org6")).isEmpty(); // the last known 2 replicas: cap 5
    assertThat(a.cap()).isEqualTo(5);
    assertThat(metrics.get("sf2loki_shard_replicas").gauge().value()).isEqualTo(2);
  }

  @Test
  void aLiveReplicaWhoseLastSeenEntryExpiredAfterAFailedHeartbeatIsNotClaimedAround() {
    roster.put("b", clock.instant().plusSeconds(19));
    ShardQuota a = quota("a", TEN, 0);
    a.tick(); // sees b until 19 s
    clock.advance(Duration.ofMillis(500));
    roster.put("b", clock.instant().plus(TTL)); // b heartbeats on
    clock.advance(RENEW.minusMillis(500));
    roster.failing(true);
    a.tick(); // a's heartbeat at 10 s fails: its view still says 19 s
    roster.failing(false);
    TEN.subList(0, 5).forEach(shard -> a.reserve(shard).orElseThrow().won());
    clock.advance(Duration.ofMillis(9_001)); // 19.001 s

    assertThat(a.reserve("org6")).isEmpty();
    assertThat(a.replicas()).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void aRefusalJustBeforeAnotherAttemptGaveItsPlaceBackRetriesWithinATwentiethOfARenewInterval() {
    roster.put("b", clock.instant().plus(Duration.ofHours(1)));
    ShardQuota a = quota("a", List.of("x", "y"), 0);
    a.tick(); // cap 1
    ShardBalance.Reservation x = a.reserve("x").orElseThrow();
    assertThat(a.reserve("y")).isEmpty();
    x.cancel(); // between the refusal and the coordinator asking when to poll again
    assertThat(a.roomMayOpenIn()).contains(RENEW.dividedBy(20));
  }

  @Test
  void aRosterThatFailsDoesNotMakeRefusedShardsPollEveryFractionOfAnInterval() {
    roster.put("b", clock.instant().plus(Duration.ofSeconds(5)));
    ShardQuota a = quota("a", List.of("x", "y"), 0);
    a.tick(); // cap 1
    a.reserve("x").orElseThrow().won();
    roster.failing(true);
    clock.advance(Duration.ofSeconds(6));
    assertThat(a.reserve("y")).isEmpty();
    assertThat(a.roomMayOpenIn()).isEmpty();
  }

  @Test
  void aRefusalAtTheCapSaysWhenTheNextRosterEntryExpires() {
    roster.put("b", clock.instant().plus(Duration.ofSeconds(7)));
    roster.put("c", clock.instant().plus(Duration.ofSeconds(4)));
    ShardQuota a = quota("a", List.of("x", "y", "z"), 0);
    a.tick(); // cap 1
    a.reserve("x").orElseThrow().won();
    assertThat(a.reserve("y")).isEmpty();
    assertThat(a.roomMayOpenIn()).contains(Duration.ofMillis(4_001));
    clock.advance(Duration.ofMillis(4_001)); // c expired: cap 2
    a.reserve("y").orElseThrow().won();
    assertThat(a.reserve("z")).isEmpty();
    assertThat(a.roomMayOpenIn()).contains(Duration.ofMillis(3_000));
  }

  @Test
  void aRefusalWhileAnotherAttemptHoldsAPlaceRetriesWithinATwentiethOfARenewInterval() {
    roster.put("b", clock.instant().plus(Duration.ofHours(1)));
    ShardQuota a = quota("a", List.of("x", "y"), 0);
    a.tick(); // cap 1
    ShardBalance.Reservation x = a.reserve("x").orElseThrow(); // its attempt may yet lose
    assertThat(a.reserve("y")).isEmpty();
    assertThat(a.roomMayOpenIn()).contains(RENEW.dividedBy(20));
    x.cancel();
    assertThat(a.reserve("y")).isPresent();
  }

  @Test
  void atTheCapWithNoEntryExpiringSoonTheHintIsLaterThanAPoll() {
    roster.put("b", clock.instant().plus(Duration.ofHours(1)));
    ShardQuota a = quota("a", List.of("x", "y"), 0);
    a.tick(); // cap 1, b's entry far from expiring
    a.reserve("x").orElseThrow().won();
    assertThat(a.reserve("y")).isEmpty();
    assertThat(a.roomMayOpenIn()).contains(Duration.ofHours(1).plusMillis(1));
  }

  @Test
  void rendezvousWeightsAreStableAndDifferPerReplica() {
    assertThat(Rendezvous.weight("a", "prod")).isEqualTo(Rendezvous.weight("a", "prod"));
    assertThat(Rendezvous.preference("a", TEN)).isNotEqualTo(Rendezvous.preference("b", TEN));
    assertThat(Rendezvous.preference("a", TEN)).containsExactlyInAnyOrderElementsOf(TEN);
  }

  @Test
  void aReplicaOverItsCapShedsTheShardItPrefersLeastAtMostOncePerRenewInterval() {
    List<String> shards = List.of("s1", "s2", "s3", "s4");
    ShardQuota a = quota("a", shards, 0);
    a.tick(); // alone: cap 4
    Map<String, ShardBalance.Reservation> held = new java.util.HashMap<>();
    for (String s : shards) {
      ShardBalance.Reservation r = a.reserve(s).orElseThrow();
      r.won();
      held.put(s, r);
    }
    roster.put("b", clock.instant().plus(Duration.ofHours(1)));
    clock.advance(RENEW);
    a.tick(); // two replicas: cap 2
    List<String> order = Rendezvous.preference("a", shards);
    String least = order.get(3);
    assertThat(held.get(order.get(0)).shouldShed()).isFalse();
    assertThat(held.get(least).shouldShed()).isTrue();
    held.get(least).handedOver(ShardBalance.HandOver.BALANCE);
    assertThat(held.get(order.get(2)).shouldShed()).isFalse(); // not within the same interval
    clock.advance(RENEW);
    assertThat(held.get(order.get(2)).shouldShed()).isTrue();
    held.get(order.get(2)).handedOver(ShardBalance.HandOver.BALANCE);
    clock.advance(RENEW);
    assertThat(held.get(order.get(1)).shouldShed()).isFalse(); // at the cap now
    assertThat(a.reserve(least)).isEmpty();
    assertThat(
            metrics.get("sf2loki_shard_handovers_total").tag("reason", "balance").counter().count())
        .isEqualTo(2);
    assertThat(metrics.get("sf2loki_shards_held").gauge().value()).isEqualTo(2);
    assertThat(metrics.get("sf2loki_shard_cap").gauge().value()).isEqualTo(2);
  }

  @Test
  void aReservationWaitsForAStuckRosterAtMostAQuarterRenewIntervalThenUsesTheMembersLastSeen()
      throws Exception {
    Duration renew = Duration.ofMillis(400);
    CountDownLatch released = new CountDownLatch(1);
    MemoryRoster stuck =
        new MemoryRoster() {
          @Override
          public RosterDocument heartbeat(String replica, Instant expiresAt, Instant now)
              throws RosterException {
            try {
              released.await(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return super.heartbeat(replica, expiresAt, now);
          }
        };
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(clock, () -> 0L, Optional.empty(), metrics, Map.of());
    ShardQuota a = new ShardQuota("a", TEN, 0, stuck, TTL, renew, env); // its own roster thread
    try {
      long start = System.nanoTime();
      assertThat(a.reserve("org1")).isPresent(); // never read the roster: alone, cap 10
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(renew.dividedBy(4))
          .isLessThan(TestTiming.seconds(5));
    } finally {
      released.countDown();
      a.close();
    }
    assertThat(stuck.document().members()).doesNotContainKey("a"); // left after the heartbeat
  }

  @Test
  void closingRemovesThisReplicaFromTheRoster() {
    ShardQuota a = quota("a", TEN, 0);
    a.tick();
    assertThat(roster.document().members()).containsKey("a");
    a.close();
    assertThat(roster.document().members()).doesNotContainKey("a");
  }
}
