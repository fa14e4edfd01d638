package io.sf2loki.daemon.deploy;

import static io.sf2loki.daemon.deploy.Rendered.at;
import static io.sf2loki.daemon.deploy.Rendered.map;
import static io.sf2loki.daemon.deploy.Rendered.maps;
import static io.sf2loki.daemon.deploy.Rendered.strings;
import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.sf2loki.daemon.ConfigCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every overlay of {@code deploy/kubernetes/}, rendered by {@code kubectl kustomize}, against what
 * docs/deployment/kubernetes.md promises of it.
 */
class KustomizeOverlaysTest {

  private static final String QUEUE_MAX_BYTES = "sink.loki.batch.queue_max_bytes";

  private static final String OTLP = "service.metrics.otlp";

  private static final String MAX_RAM = "-XX:MaxRAMPercentage=";

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({"single, 1, 0", "ha-pair, 2, 0", "sharded, 3, 10"})
  void eachOverlayRunsItsNumberOfReplicasAndOrgs(String overlay, int replicas, int orgs)
      throws Exception {
    Rendered rendered = Rendered.of(overlay);
    assertThat(at(rendered.one("Deployment"), "spec", "replicas")).isEqualTo(replicas);
    assertThat(OverlayConfig.of(rendered, dir, environment()).orgs()).hasSize(orgs);
  }

  /**
   * Every org has its own two lanes, and a replica may lead every org (the others dead): their
   * buffers ({@code sink.loki.batch.queue_max_bytes} each) must fit half the heap the container's
   * memory limit gives the JVM ({@code -XX:MaxRAMPercentage}).
   */
  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void theLaneBuffersOfEveryOrgFitInHalfTheHeapOfOneReplica(String overlay) throws Exception {
    Rendered rendered = Rendered.of(overlay);
    OverlayConfig config = OverlayConfig.of(rendered, dir, environment());
    long lane = config.loaded(environment()).resolved().getBytes(QUEUE_MAX_BYTES);
    long buffers = Math.max(1, config.orgs().size()) * 2 * lane;
    String limit = String.valueOf(at(rendered.container(), "resources", "limits", "memory"));
    int percent =
        strings(rendered.container().get("command")).stream()
            .filter(a -> a.startsWith(MAX_RAM))
            .map(a -> Integer.parseInt(a.substring(MAX_RAM.length())))
            .findFirst()
            .orElseThrow();
    long heap = ConfigFactory.parseString("limit = " + limit).getBytes("limit") * percent / 100;
    assertThat(buffers)
        .as("lane buffers of %s against a heap of %s", overlay, heap)
        .isLessThanOrEqualTo(heap / 2);
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void livenessProbesHealthzAndReadinessProbesReadyzOnTheHttpPort(String overlay) {
    Map<String, Object> container = Rendered.of(overlay).container();
    Map<String, Object> port =
        maps(container.get("ports")).stream()
            .filter(p -> "http".equals(p.get("name")))
            .findFirst()
            .orElseThrow();
    assertThat(port.get("containerPort")).isEqualTo(8080); // service.http_port in sf2loki.conf
    assertThat(at(container, "livenessProbe", "httpGet", "path")).isEqualTo("/healthz");
    assertThat(at(container, "livenessProbe", "httpGet", "port")).isEqualTo("http");
    assertThat(at(container, "readinessProbe", "httpGet", "path")).isEqualTo("/readyz");
    assertThat(at(container, "readinessProbe", "httpGet", "port")).isEqualTo("http");
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void theContainerRequestsCpuAndMemoryAndIsCappedInMemory(String overlay) {
    Map<String, Object> resources = map(Rendered.of(overlay).container().get("resources"));
    assertThat(at(resources, "requests", "cpu")).isNotNull();
    assertThat(at(resources, "requests", "memory")).isNotNull();
    assertThat(at(resources, "limits", "memory")).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void podsRunAsNonRootOnAReadOnlyRootFileSystemWithoutPrivileges(String overlay) {
    Rendered rendered = Rendered.of(overlay);
    assertThat(at(rendered.podSpec(), "securityContext", "runAsNonRoot")).isEqualTo(true);
    Map<String, Object> security = map(rendered.container().get("securityContext"));
    assertThat(security.get("readOnlyRootFilesystem")).isEqualTo(true);
    assertThat(security.get("allowPrivilegeEscalation")).isEqualTo(false);
    assertThat(strings(at(security, "capabilities", "drop"))).containsExactly("ALL");
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void aStandbyThatIsNeverReadyCannotStallARollout(String overlay) {
    assertThat(at(Rendered.of(overlay).one("Deployment"), "spec", "strategy", "type"))
        .as("a rolling update waits for new pods to be Ready; a standby never is")
        .isEqualTo("Recreate");
  }

  /**
   * Only Ready pods count for a PodDisruptionBudget, and only a leader is Ready: any budget that
   * keeps one pod available forbids evicting the leader, so a node drain blocks the handover.
   */
  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void noPodDisruptionBudgetBlocksTheHandover(String overlay) {
    assertThat(Rendered.of(overlay).all("PodDisruptionBudget")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void theTerminationGraceCoversTheDrainAndTheCloseOfTheProcess(String overlay) throws Exception {
    Rendered rendered = Rendered.of(overlay);
    OverlayConfig config = OverlayConfig.of(rendered, dir, environment());
    long grace = config.raw().getDuration("service.shutdown_grace").toSeconds();
    assertThat(((Number) rendered.podSpec().get("terminationGracePeriodSeconds")).longValue())
        .as("the process gives itself shutdown_grace + 10s; the kubelet must wait longer")
        .isGreaterThan(grace + 10);
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void theDeploymentMountsTheGeneratedConfigMapAndRunsItsMainFile(String overlay) {
    Rendered rendered = Rendered.of(overlay);
    String generated = OverlayConfig.name(OverlayConfig.configMap(rendered));
    assertThat(maps(rendered.podSpec().get("volumes")))
        .anySatisfy(v -> assertThat(at(v, "configMap", "name")).isEqualTo(generated));
    assertThat(strings(rendered.container().get("command")))
        .containsSubsequence("--config", "/etc/sf2loki/config/sf2loki.conf");
    assertThat(maps(rendered.container().get("volumeMounts")))
        .anySatisfy(m -> assertThat(m.get("mountPath")).isEqualTo("/etc/sf2loki/config"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void theRoleNamesExactlyTheLeasesTheConfigTakes(String overlay) throws Exception {
    Rendered rendered = Rendered.of(overlay);
    List<String> leases = OverlayConfig.of(rendered, dir, environment()).leaseNames();
    if (leases.isEmpty()) {
      assertThat(rendered.all("Role")).as("no Lease, no Role").isEmpty();
      assertThat(rendered.podSpec().get("automountServiceAccountToken")).isEqualTo(false);
      return;
    }
    Set<String> named = new TreeSet<>();
    for (Map<String, Object> rule : maps(rendered.one("Role").get("rules"))) {
      assertThat(strings(rule.get("apiGroups"))).containsExactly("coordination.k8s.io");
      assertThat(strings(rule.get("resources"))).containsExactly("leases");
      List<String> names = strings(rule.get("resourceNames"));
      if (names.isEmpty()) {
        // resourceNames cannot scope create: the name is not known before the object exists
        assertThat(strings(rule.get("verbs"))).containsExactly("create");
      } else {
        assertThat(strings(rule.get("verbs"))).containsExactlyInAnyOrder("get", "update");
        named.addAll(names);
      }
    }
    assertThat(named).containsExactlyInAnyOrderElementsOf(leases);
    Map<String, Object> binding = rendered.one("RoleBinding");
    assertThat(at(binding, "roleRef", "name"))
        .isEqualTo(at(rendered.one("Role"), "metadata", "name"));
    assertThat(maps(binding.get("subjects")))
        .singleElement()
        .satisfies(
            s -> assertThat(s.get("name")).isEqualTo(rendered.podSpec().get("serviceAccountName")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void theConfigMapPassesConfigCheck(String overlay) throws Exception {
    OverlayConfig config = OverlayConfig.of(Rendered.of(overlay), dir, environment());
    ConfigCheck.Result check = ConfigCheck.check(config.file(), environment());
    assertThat(check.err()).isEmpty();
    assertThat(check.code()).isZero();
    assertThat(check.out()).isEqualTo("config check OK\n");
  }

  @Test
  void theOtlpPushComponentTurnsThePushOnWithTheEndpointOfItsConfigMap() throws Exception {
    Path kustomization = Files.createDirectories(dir.resolve("with-otlp"));
    Rendered rendered = Rendered.composed(kustomization, "ha-pair", List.of("otlp-push"));
    Map<String, Object> otlpMap =
        rendered.all("ConfigMap").stream()
            .filter(c -> OverlayConfig.name(c).startsWith("sf2loki-otlp-"))
            .findFirst()
            .orElseThrow();
    assertThat(at(otlpMap, "metadata", "namespace"))
        .isEqualTo(at(rendered.one("Deployment"), "metadata", "namespace"));
    Map<String, String> env = new HashMap<>(environment());
    env.putAll(rendered.containerEnvironment());

    OverlayConfig config = OverlayConfig.of(rendered, dir, env);
    ConfigCheck.Result check = ConfigCheck.check(config.file(), env);
    Config otlp = config.loaded(env).resolved().getConfig(OTLP);

    assertThat(check.err()).isEmpty();
    assertThat(check.code()).isZero();
    assertThat(otlp.getBoolean("enabled")).isTrue();
    assertThat(otlp.getString("url")).isEqualTo(at(otlpMap, "data", "url"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "ha-pair", "sharded"})
  void noOverlayPushesOverOtlpByItself(String overlay) throws Exception {
    Rendered rendered = Rendered.of(overlay);
    Map<String, String> env = new HashMap<>(environment());
    env.putAll(rendered.containerEnvironment());

    OverlayConfig config = OverlayConfig.of(rendered, dir, env);

    assertThat(config.loaded(env).resolved().getBoolean(OTLP + ".enabled")).isFalse();
  }

  private Map<String, String> environment() throws Exception {
    return ConfigCheck.documentedEnvironment(dir);
  }
}
