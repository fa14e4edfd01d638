package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.registry.ProviderRegistry;
import io.sf2loki.spi.LeaseInfo;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Binding of coordinate.k8s_lease; no client is built while configuring. */
class K8sLeaseConfigTest {

  private static ConfigReader section(String hocon) {
    ConfigLoader loader = new ConfigLoader(K8sLeaseConfigTest.class.getClassLoader(), Map.of());
    return loader.loadString(hocon).reader().section("coordinate.k8s_lease");
  }

  @Test
  void defaultsBindFromReferenceConf() {
    K8sLeaseConfig config = K8sLeaseConfig.bind(section(""));

    assertThat(config.location()).isEqualTo("default/sf2loki-leader");
    assertThat(config.leaseDuration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.renewInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.identity()).isEmpty();
    assertThat(config.kubeconfig()).isEmpty();
  }

  @Test
  void renewIntervalMustBeLessThanHalfTheLeaseDuration() {
    ConfigReader r = section("coordinate.k8s_lease { renew_interval = 15s, lease_duration = 30s }");

    K8sLeaseConfig.bind(r);

    assertThat(r.problems())
        .extracting(ConfigProblem::message)
        .singleElement()
        .asString()
        .startsWith(
            "coordinate.k8s_lease.renew_interval (15s) must be less than half of lease_duration (30s)");
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    ConfigReader r =
        section(
            "coordinate.k8s_lease { name = \"Bad_Name\", namespace = \"\", lease_duration = 1500ms }");

    K8sLeaseConfig.bind(r);

    assertThat(r.problems())
        .extracting(ConfigProblem::path)
        .contains(
            "coordinate.k8s_lease.name",
            "coordinate.k8s_lease.namespace",
            "coordinate.k8s_lease.lease_duration");
  }

  @Test
  void configuringPerformsNoIoAndOffersAnInspector() {
    assertThat(
            new K8sLeaseCoordinatorProvider()
                .configure(section(""))
                .inspector(Clock.systemUTC(), Map.of()))
        .isPresent();
    assertThat(ProviderRegistry.coordinators(getClass().getClassLoader()).types())
        .containsExactly("file_lease", "k8s_lease", "noop");
  }

  @Test
  void theInClusterCheckReadsTheGivenEnvironmentNotTheProcessOne() {
    LeaseInfo outsideAPod =
        new K8sLeaseCoordinatorProvider()
            .configure(section(""))
            .inspector(Clock.systemUTC(), Map.of("HOSTNAME", "laptop"))
            .orElseThrow()
            .inspect();

    assertThat(outsideAPod.state()).isEqualTo(LeaseInfo.State.UNREADABLE);
    assertThat(outsideAPod.detail())
        .hasValueSatisfying(d -> assertThat(d).contains("KUBERNETES_SERVICE_HOST is unset"));
  }
}
