package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.util.ClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.tck.AcquireRun;
import io.sf2loki.tck.FakeCheckpointStore;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the fabric8 mock API server answers decides a campaign's failure: 403 (RBAC) is permanent,
 * and the engine gives up after its attempts with the Lease and the fix; 503 is transient, backed
 * off from and counted until the server answers, and the term then runs.
 */
class K8sLeaseCampaignFailureTest {

  private static final String LEASE =
      "/apis/coordination.k8s.io/v1/namespaces/default/leases/sf2loki-leader";
  private static final String FORBIDDEN =
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\","
          + "\"code\":403,\"message\":\"leases.coordination.k8s.io \\\"sf2loki-leader\\\" is"
          + " forbidden\"}";

  private KubernetesMockServer server;

  @BeforeEach
  void start() throws Exception {
    Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            expectations,
            new KubernetesMixedDispatcher(expectations),
            false);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void stop() {
    server.destroy();
  }

  private AcquireRun engine() {
    K8sLeaseConfig config =
        new K8sLeaseConfig(
            "default",
            "sf2loki-leader",
            Optional.empty(),
            Duration.ofSeconds(30),
            Duration.ofSeconds(10),
            Optional.empty());
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            Clock.systemUTC(),
            Ticker.SYSTEM,
            Optional.empty(),
            new SimpleMeterRegistry(),
            Map.of());
    return AcquireRun.start(
        new FakeCheckpointStore(),
        () -> new K8sLeaseCoordinator(api(), "pod-a", config, env, Sleeper.REAL),
        AcquireRun.FAST);
  }

  private CoordinationV1Api api() {
    ApiClient client =
        new ClientBuilder().setBasePath(server.url("/").replaceAll("/$", "")).build();
    return new CoordinationV1Api(client);
  }

  @Test
  void aForbiddenLeaseEndsTheEngineNamingTheRbacFix() throws Exception {
    server.expect().get().withPath(LEASE).andReturn(403, FORBIDDEN).always();
    try (AcquireRun run = engine()) {
      assertThat(run.outcome())
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class,
              f -> {
                assertThat(f.failure().reason()).isEqualTo("lease_access_denied");
                assertThat(f.failure().resource()).isEqualTo("default/sf2loki-leader");
                assertThat(f.failure().fix()).contains("get and update the Lease sf2loki-leader");
                assertThat(f.describe()).contains("HTTP 403");
                assertThat(f.attempts()).isEqualTo(3);
              });
      assertThat(run.campaigns()).isEqualTo(3);
    }
  }

  @Test
  void anUnavailableApiServerIsBackedOffFromAndTheTermRunsOnceItAnswers() throws Exception {
    server.expect().get().withPath(LEASE).andReturn(503, "etcdserver: leader changed").times(4);
    try (AcquireRun run = engine()) {
      assertThat(run.outcome()).isInstanceOf(EngineOutcome.Finished.class);
      assertThat(run.failures("transient", "lease_unavailable")).isEqualTo(4);
      assertThat(run.campaigns()).isEqualTo(5);
    }
  }
}
