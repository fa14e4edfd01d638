package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.tck.LeaseDamage;
import io.sf2loki.tck.LeaseElection;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The kit's adapter for k8s_lease: the real {@link K8sLeaseCoordinator} and client-java against one
 * {@link FakeLeaseApiServer} (real resourceVersion CAS, no sockets), every contender's requests
 * through its own {@link FaultyTransport}, and one real state file. Lease edits are what {@code
 * kubectl} would do: read, change the spec, replace with the read resourceVersion.
 */
final class K8sLeaseElection implements LeaseElection {

  /** The damages a Lease suffers beyond deletion and lowered leaseTransitions. */
  static final List<LeaseDamage<K8sLeaseElection>> DAMAGES =
      List.of(
          LeaseDamage.of(
              "kubectl edit: holderIdentity cleared",
              (e, unused) -> e.editLease(s -> s.holderIdentity(null))),
          LeaseDamage.of(
              "kubectl edit: spec emptied",
              (e, unused) ->
                  e.editLease(
                      s ->
                          s.holderIdentity(null)
                              .renewTime(null)
                              .acquireTime(null)
                              .leaseDurationSeconds(null)
                              .leaseTransitions(null))));

  private final SimulatedTime time;
  private final Path state;
  private final K8sLeaseConfig config =
      new K8sLeaseConfig(
          "default",
          "sf2loki-leader",
          Optional.empty(),
          Duration.ofSeconds(30),
          Duration.ofSeconds(10),
          Optional.empty());
  private final FakeLeaseApiServer server = new FakeLeaseApiServer();
  private final CoordinationV1Api kubectl = server.api(null);

  K8sLeaseElection(Path dir, SimulatedTime time) {
    this.time = time;
    this.state = dir.resolve("state.json");
  }

  @Override
  public Candidate join(String identity, Optional<EpochFloor> floor) {
    FaultyTransport transport = new FaultyTransport(time);
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            time.clock(), time.ticker(), floor, new SimpleMeterRegistry(), Map.of());
    K8sLeaseCoordinator coordinator =
        new K8sLeaseCoordinator(server.api(transport), identity, config, env, time::sleep);
    return new Candidate() {
      @Override
      public Coordinator coordinator() {
        return coordinator;
      }

      @Override
      public void pauseBeforeNextWrite(Duration pause) {
        transport.pauseBeforeNextWrite(pause);
      }

      @Override
      public void cutOffFor(Duration outage) {
        transport.downFor(outage);
      }

      @Override
      public void kill() {
        transport.downForever();
      }
    };
  }

  @Override
  public CheckpointStore openStore() {
    return StoreKind.fileStore(state);
  }

  @Override
  public void leaveLease(String holder, long epoch) throws ApiException {
    kubectl
        .createNamespacedLease(
            config.namespace(), LeaseBodies.create(config, holder, epoch, time.instant()))
        .execute();
  }

  @Override
  public void deleteLease() throws ApiException {
    try {
      kubectl.deleteNamespacedLease(config.name(), config.namespace()).execute();
    } catch (ApiException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  @Override
  public void lowerLeaseEpoch(int by) throws ApiException {
    editLease(s -> s.leaseTransitions(Math.max(0, orZero(s.getLeaseTransitions()) - by)));
  }

  /** kubectl edit: read, change the spec, replace with the read resourceVersion. */
  void editLease(UnaryOperator<V1LeaseSpec> edit) throws ApiException {
    V1Lease lease;
    try {
      lease = kubectl.readNamespacedLease(config.name(), config.namespace()).execute();
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return;
      }
      throw e;
    }
    lease.spec(edit.apply(lease.getSpec() == null ? new V1LeaseSpec() : lease.getSpec()));
    kubectl.replaceNamespacedLease(config.name(), config.namespace(), lease).execute();
  }

  private static int orZero(Integer i) {
    return i == null ? 0 : i;
  }

  @Override
  public String describeLease() {
    return server
        .get(config.namespace(), config.name())
        .map(
            l ->
                "holder="
                    + LeaseBodies.holder(l)
                    + " transitions="
                    + LeaseBodies.epoch(l)
                    + " rv="
                    + LeaseBodies.resourceVersion(l))
        .orElse("absent");
  }

  @Override
  public void close() {}
}
