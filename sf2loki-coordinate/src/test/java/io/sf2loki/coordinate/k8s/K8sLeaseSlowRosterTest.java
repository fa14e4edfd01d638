package io.sf2loki.coordinate.k8s;

import io.sf2loki.coordinate.support.SlowRosterContract;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import java.time.Duration;
import java.util.Optional;

/** Renewals under a roster that does not answer, for k8s_lease on the in-memory Lease API. */
class K8sLeaseSlowRosterTest extends SlowRosterContract {

  private static final Duration DURATION = Duration.ofSeconds(30);
  private static final Duration RENEW = Duration.ofSeconds(10);

  private final FakeLeaseApiServer server = new FakeLeaseApiServer();

  @Override
  protected Duration ttl() {
    return DURATION;
  }

  @Override
  protected Duration renewInterval() {
    return RENEW;
  }

  @Override
  protected Coordinator coordinator(CoordinatorEnvironment environment) {
    K8sLeaseConfig config =
        new K8sLeaseConfig(
            "default", "sf2loki-leader-emea", Optional.empty(), DURATION, RENEW, Optional.empty());
    return new K8sLeaseCoordinator(
        server.api(new FaultyTransport(time)), "a", config, environment, time::sleep);
  }
}
