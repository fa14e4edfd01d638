package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.FakeCheckpointStore;
import io.sf2loki.tck.RecordingLeadershipListener;
import io.sf2loki.tck.RecordingLeadershipListener.Event;
import io.sf2loki.tck.RecordingLeadershipListener.Kind;
import io.sf2loki.tck.SimulatedTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A claim whose write stalls past lease_duration, on the in-memory Lease API. */
class K8sLeaseStalledClaimTest {

  private final SimulatedTime time =
      new SimulatedTime(Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sim"));
  private final K8sLeaseConfig config =
      new K8sLeaseConfig(
          "default",
          "sf2loki-leader",
          Optional.empty(),
          Duration.ofSeconds(30),
          Duration.ofSeconds(10),
          Optional.empty());

  @Test
  void claimLandingAfterTheLeaseDurationIsNeverGrantedAsAnAlreadyLapsedTerm() throws Exception {
    FakeLeaseApiServer server = new FakeLeaseApiServer();
    FaultyTransport transport = new FaultyTransport(time);
    transport.pauseBeforeNextWrite(Duration.ofSeconds(45));
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            time.clock(),
            time.ticker(),
            Optional.of(new FakeCheckpointStore()),
            new SimpleMeterRegistry(),
            Map.of());
    RecordingLeadershipListener listener = new RecordingLeadershipListener();
    time.join();
    Contender a =
        Contender.start(
            time,
            "a",
            new K8sLeaseCoordinator(server.api(transport), "a", config, env, time::sleep),
            listener);

    assertThat(time.awaitCondition(a::isLeading, Duration.ofMinutes(3), Duration.ofMillis(500)))
        .isTrue();
    time.leave();
    a.stop();

    assertThat(listener.events())
        .filteredOn(e -> e.kind() == Kind.ACQUIRE)
        .extracting(Event::currentDuringCall)
        .containsOnly(true);
  }
}
