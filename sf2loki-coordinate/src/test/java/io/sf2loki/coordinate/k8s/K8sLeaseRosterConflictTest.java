package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.balance.RosterException;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.testkit.time.ManualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.random.RandomGenerator;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * The k8s_lease roster's updates that lose the resourceVersion race to another replica: retried
 * after growing waits, bounded in attempts and in time, each retry counted.
 */
class K8sLeaseRosterConflictTest {

  static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  static final Duration RENEW = Duration.ofSeconds(10);

  /** The ceiling of every wait: the waits of the conflict policy grow 100, 200, 400, 800 ms. */
  static final RandomGenerator HIGHEST =
      new RandomGenerator() {
        @Override
        public long nextLong() {
          return Long.MAX_VALUE;
        }

        @Override
        public long nextLong(long bound) {
          return bound - 1;
        }
      };

  final FakeLeaseApiServer server = new FakeLeaseApiServer();
  final ManualClock clock = new ManualClock(NOW);
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  final List<Duration> waits = new CopyOnWriteArrayList<>();

  /** Records each wait and lets it pass on the clock the retries' time bound is measured with. */
  final Sleeper sleeper =
      d -> {
        waits.add(d);
        clock.advance(d);
      };

  /**
   * Before each of this replica's next {@link #before} replaces, another replica writes the roster;
   * each replace takes {@link #roundTrip} on the clock.
   */
  final class Rival implements Interceptor {
    private final K8sLeaseRoster other = roster(server.api(null));
    volatile int before;
    volatile Duration roundTrip = Duration.ZERO;

    @Override
    public Response intercept(Chain chain) throws IOException {
      if (!"PUT".equals(chain.request().method())) {
        return chain.proceed(chain.request());
      }
      clock.advance(roundTrip);
      if (before > 0) {
        before--;
        try {
          other.heartbeat("pod-b", NOW.plusSeconds(30), NOW);
        } catch (RosterException e) {
          throw new UncheckedIOException(new IOException(e));
        }
      }
      return chain.proceed(chain.request());
    }
  }

  final Rival rival = new Rival();
  final K8sLeaseRoster roster = roster(server.api(rival));

  K8sLeaseRoster roster(CoordinationV1Api api) {
    K8sLeaseConfig config =
        new K8sLeaseConfig(
            "default",
            "sf2loki-leader",
            Optional.empty(),
            Duration.ofSeconds(30),
            RENEW,
            Optional.empty());
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            clock,
            () -> clock.instant().toEpochMilli() * 1_000_000L,
            Optional.empty(),
            metrics,
            Map.of());
    return new K8sLeaseRoster(
        () -> api, config, K8sLeaseRoster.conflictBackoff(HIGHEST), sleeper, env);
  }

  double retries() {
    return metrics
        .get("sf2loki_shard_roster_retries_total")
        .tag("reason", "conflict")
        .counter()
        .count();
  }

  @Test
  void aHeartbeatThatLosesTheRaceIsRetriedAfterGrowingWaitsAndEachRetryIsCounted()
      throws Exception {
    roster.heartbeat("pod-a", NOW.plusSeconds(30), NOW); // creates the roster Lease
    rival.before = 3;

    roster.heartbeat("pod-a", NOW.plusSeconds(40), NOW);

    assertThat(waits)
        .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400));
    assertThat(retries()).isEqualTo(3);
    assertThat(roster.read().members()).containsOnlyKeys("pod-a", "pod-b");
    assertThat(roster.read().members()).containsEntry("pod-a", NOW.plusSeconds(40));
  }

  @Test
  void theWaitsAfterConflictsAreJittered() {
    Backoff policy = K8sLeaseRoster.conflictBackoff(RandomGenerator.of("L64X128MixRandom"));
    assertThat(List.of(policy.delay(4), policy.delay(4), policy.delay(4), policy.delay(4)))
        .allSatisfy(d -> assertThat(d).isBetween(Duration.ofMillis(50), Duration.ofMillis(800)))
        .doesNotHaveDuplicates();
  }

  @Test
  void aRunOfConflictsIsARosterFailureAfterTheLastAttempt() throws Exception {
    roster.heartbeat("pod-a", NOW.plusSeconds(30), NOW);
    rival.before = Integer.MAX_VALUE;

    assertThatThrownBy(() -> roster.heartbeat("pod-a", NOW.plusSeconds(40), NOW))
        .isInstanceOfSatisfying(RosterException.class, e -> assertThat(e.corrupt()).isFalse())
        .hasMessageContaining(K8sLeaseRoster.ATTEMPTS + " updates in a row lost");
    assertThat(waits).hasSize(K8sLeaseRoster.ATTEMPTS - 1);
    assertThat(retries()).isEqualTo(K8sLeaseRoster.ATTEMPTS - 1);
  }

  @Test
  void retriesStopBeforeTheyWouldOutlastHalfARenewInterval() throws Exception {
    roster.heartbeat("pod-a", NOW.plusSeconds(30), NOW);
    rival.before = Integer.MAX_VALUE;
    rival.roundTrip = Duration.ofSeconds(2);

    // replace 2 s, wait 0.1 s, replace 2 s, wait 0.2 s, replace 2 s: a wait of 0.4 s now would
    // end past 5 s (half the renew interval) after the first replace
    assertThatThrownBy(() -> roster.heartbeat("pod-a", NOW.plusSeconds(40), NOW))
        .isInstanceOf(RosterException.class)
        .hasMessageContaining("3 updates in a row lost");
    assertThat(waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
  }
}
