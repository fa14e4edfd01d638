package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.SimulatedTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A standby's takeover of a dead holder's Lease when renew_interval does not divide lease_duration,
 * on the in-memory Lease API and simulated time.
 */
class K8sLeaseTakeoverBoundTest {

  private static final Duration DURATION = Duration.ofSeconds(10);
  private static final Duration RENEW = Duration.ofSeconds(3);

  private final SimulatedTime time =
      new SimulatedTime(Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sim"));
  private final K8sLeaseConfig config =
      new K8sLeaseConfig(
          "default", "sf2loki-leader", Optional.empty(), DURATION, RENEW, Optional.empty());
  private final FakeLeaseApiServer server = new FakeLeaseApiServer();
  private Contender a;
  private Contender b;

  private Contender contender(String identity, FaultyTransport transport) {
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            time.clock(), time.ticker(), Optional.empty(), new SimpleMeterRegistry(), Map.of());
    return Contender.start(
        time,
        identity,
        new K8sLeaseCoordinator(server.api(transport), identity, config, env, time::sleep));
  }

  @AfterEach
  void stop() throws Exception {
    if (a != null) {
      a.requestStop();
      a.awaitEnded(time); // killed: its campaign fails at the transport, a transient failure
    }
    if (b != null) {
      b.requestStop();
    }
    time.leave();
    if (b != null) {
      b.stop();
    }
  }

  @Test
  void aDeadHoldersLeaseIsTakenWithinLeaseDurationPlusRenewInterval() throws Exception {
    time.join();
    FaultyTransport holder = new FaultyTransport(time);
    a = contender("a", holder);
    time.sleep(Duration.ofMillis(2_900));
    assertThat(a.isLeading()).isTrue();
    // b polls 0.1 s before each of a's renewals, so it sees each new resourceVersion almost one
    // renew interval late: the phase in which polls one renew interval apart overshoot the most
    b = contender("b", new FaultyTransport(time));
    time.sleep(Duration.ofMillis(3_200));
    holder.downForever(); // kill -9 just after a renewal
    long killed = time.nanos();

    assertThat(time.awaitCondition(b::isLeading, Duration.ofMinutes(1), Duration.ofMillis(50)))
        .isTrue();
    assertThat(Duration.ofNanos(time.nanos() - killed)).isLessThanOrEqualTo(DURATION.plus(RENEW));
  }
}
