package io.sf2loki.coordinate.k8s;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.util.ClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.tck.SimulatedTime;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A fabric8 CRUD mock API server and k8s-lease coordinators on a shared simulated timeline. */
final class K8sLeaseFixture implements AutoCloseable {

  static final Duration DURATION = Duration.ofSeconds(30);
  static final Duration RENEW = Duration.ofSeconds(10);

  final SimulatedTime time =
      new SimulatedTime(Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sim"));

  /** Where every coordinator of this fixture reports. */
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  final K8sLeaseConfig config =
      new K8sLeaseConfig(
          "default", "sf2loki-leader", Optional.empty(), DURATION, RENEW, Optional.empty());
  final KubernetesMockServer server;
  final CoordinationV1Api api;

  K8sLeaseFixture() throws Exception {
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(Collections.emptyList()),
            false);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    api = api();
  }

  CoordinationV1Api api() throws Exception {
    ApiClient client =
        new ClientBuilder().setBasePath(server.url("/").replaceAll("/$", "")).build();
    return new CoordinationV1Api(client);
  }

  K8sLeaseCoordinator coordinator(String identity, Optional<EpochFloor> floor) throws Exception {
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(time.clock(), time.ticker(), floor, metrics, Map.of());
    return new K8sLeaseCoordinator(api(), identity, config, env, time::sleep);
  }

  /** The simulated timeline and {@link #metrics}, without an epoch floor. */
  CoordinatorEnvironment environment() {
    return new CoordinatorEnvironment(
        time.clock(), time.ticker(), Optional.empty(), metrics, Map.of());
  }

  V1Lease read() throws ApiException {
    return api.readNamespacedLease(config.name(), config.namespace()).execute();
  }

  Optional<V1Lease> readIfPresent() {
    try {
      return Optional.of(read());
    } catch (ApiException e) {
      return Optional.empty();
    }
  }

  /** Seeds a Lease as an earlier holder would have left it. */
  void seed(String holder, int transitions) throws ApiException {
    api.createNamespacedLease(
            config.namespace(), LeaseBodies.create(config, holder, transitions, time.instant()))
        .execute();
  }

  void delete() throws ApiException {
    api.deleteNamespacedLease(config.name(), config.namespace()).execute();
  }

  @Override
  public void close() {
    server.destroy();
  }
}
