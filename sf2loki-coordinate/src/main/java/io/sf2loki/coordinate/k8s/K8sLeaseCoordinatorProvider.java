package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.sf2loki.coordinate.balance.ShardQuota;
import io.sf2loki.coordinate.internal.HolderIds;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.CoordinatorException;
import io.sf2loki.spi.CoordinatorProvider;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.LeaseInspector;
import io.sf2loki.spi.RosterInfo;
import io.sf2loki.spi.ShardBalance;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Provides the {@code k8s_lease} coordinator. */
public final class K8sLeaseCoordinatorProvider implements CoordinatorProvider {

  @Override
  public String type() {
    return K8sLeaseInspector.TYPE;
  }

  @Override
  public Factory configure(ConfigSection section) {
    K8sLeaseConfig config = K8sLeaseConfig.bind(section);
    return new Factory() {
      @Override
      public Optional<Duration> leaseDuration() {
        return Optional.of(config.leaseDuration());
      }

      @Override
      public ShardBalance shardBalance(
          List<String> shards, int slack, CoordinatorEnvironment environment) {
        Map<String, String> variables = environment.variables();
        String replica = config.identity().orElseGet(() -> HolderIds.podName(variables));
        return new ShardQuota(
            replica,
            shards,
            slack,
            new K8sLeaseRoster(
                () -> api(config, variables),
                config,
                K8sLeaseRoster.conflictBackoff(new SecureRandom()),
                io.sf2loki.pipeline.Sleeper.SYSTEM,
                environment),
            config.leaseDuration(),
            config.renewInterval(),
            environment);
      }

      @Override
      public Optional<RosterInfo.Inspector> rosterInspector(Map<String, String> variables) {
        return Optional.of(() -> K8sLeaseRoster.inspect(() -> api(config, variables), config));
      }

      @Override
      public Coordinator create(CoordinatorEnvironment environment) {
        Map<String, String> variables = environment.variables();
        String identity = config.identity().orElseGet(() -> HolderIds.podName(variables));
        CoordinationV1Api api;
        try {
          api = api(config, variables);
        } catch (UncheckedIOException e) {
          throw new CoordinatorException(
              e.getMessage(),
              e,
              FailureClass.permanent(
                  "lease_access_denied",
                  config.location(),
                  "give sf2loki Kubernetes credentials: run it in a pod with a service account, or"
                      + " set coordinate.k8s_lease.kubeconfig to a readable kubeconfig"));
        }
        return new K8sLeaseCoordinator(api, identity, config, environment, Sleeper.REAL);
      }

      @Override
      public Optional<LeaseInspector> inspector(Clock clock, Map<String, String> variables) {
        return Optional.of(new K8sLeaseInspector(() -> api(config, variables), config, clock));
      }
    };
  }

  /**
   * A client from the kubeconfig file, else the in-cluster service account.
   *
   * @param variables the process environment: outside a pod {@code KUBERNETES_SERVICE_HOST} is
   *     unset
   * @throws UncheckedIOException the credentials cannot be read
   */
  static CoordinationV1Api api(K8sLeaseConfig config, Map<String, String> variables) {
    try {
      ApiClient client;
      if (config.kubeconfig().isPresent()) {
        try (Reader reader =
            Files.newBufferedReader(config.kubeconfig().get(), StandardCharsets.UTF_8)) {
          client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader)).build();
        }
      } else if (variables.get("KUBERNETES_SERVICE_HOST") == null) {
        // ClientBuilder.cluster() would fail with a bare NumberFormatException outside a pod.
        throw new IOException(
            "not running in a Kubernetes pod (KUBERNETES_SERVICE_HOST is unset) and"
                + " coordinate.k8s_lease.kubeconfig is not set");
      } else {
        client = ClientBuilder.cluster().build();
      }
      int timeout = (int) Math.min(Integer.MAX_VALUE, config.renewInterval().toMillis());
      client.setConnectTimeout(timeout);
      client.setReadTimeout(timeout);
      client.setWriteTimeout(timeout);
      return new CoordinationV1Api(client);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot load Kubernetes credentials for lease "
              + config.location()
              + (config.kubeconfig().isPresent()
                  ? " from " + config.kubeconfig().get()
                  : " (in-cluster service account)")
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
