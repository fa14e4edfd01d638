package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.support.HintingBalance;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.SimulatedTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How long a k8s_lease standby the shard quota refused waits before it asks again. */
@Timeout(60)
class K8sLeaseQuotaHintTest {

  private static final Duration RENEW = Duration.ofSeconds(10);

  private final SimulatedTime time =
      new SimulatedTime(Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sim"));
  private final K8sLeaseConfig config =
      new K8sLeaseConfig(
          "default",
          "sf2loki-leader-emea",
          Optional.empty(),
          Duration.ofSeconds(30),
          RENEW,
          Optional.empty());
  private final FakeLeaseApiServer server = new FakeLeaseApiServer();
  private Contender contender;

  @AfterEach
  void stop() throws Exception {
    time.leave();
    if (contender != null) {
      contender.stop();
    }
  }

  private List<Duration> asked(Optional<Duration> hint) throws Exception {
    HintingBalance balance = new HintingBalance(time, 1, hint);
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
                time.clock(), time.ticker(), Optional.empty(), new SimpleMeterRegistry(), Map.of())
            .withShard("emea", balance);
    time.join();
    long start = time.nanos();
    contender =
        Contender.start(
            time,
            "a",
            new K8sLeaseCoordinator(
                server.api(new FaultyTransport(time)), "a", config, env, time::sleep));
    time.awaitCondition(contender::isLeading, Duration.ofMinutes(1), Duration.ofMillis(10));
    return balance.askedAtNanos().stream().map(t -> Duration.ofNanos(t - start)).toList();
  }

  @Test
  void aRefusedStandbyAsksAgainWhenTheQuotaSaysRoomMayOpen() throws Exception {
    assertThat(asked(Optional.of(Duration.ofSeconds(2))))
        .containsExactly(Duration.ZERO, Duration.ofSeconds(2));
  }

  @Test
  void aRefusedStandbyWithoutAHintAsksAgainAfterARenewInterval() throws Exception {
    assertThat(asked(Optional.empty())).containsExactly(Duration.ZERO, RENEW);
  }
}
