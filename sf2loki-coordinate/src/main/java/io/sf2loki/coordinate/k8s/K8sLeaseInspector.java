package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.sf2loki.spi.LeaseInfo;
import io.sf2loki.spi.LeaseInspector;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * One GET of the Lease for {@code lease show} and {@code doctor}. Expiry here is informational
 * ({@code renewTime + leaseDurationSeconds} on our wall clock); the election itself never compares
 * another host's renewTime with our clock.
 */
public final class K8sLeaseInspector implements LeaseInspector {

  static final String TYPE = "k8s_lease";

  private final Supplier<CoordinationV1Api> api;
  private final K8sLeaseConfig config;
  private final Clock clock;

  /**
   * @param api supplies the client on first use (building it reads the service account)
   */
  public K8sLeaseInspector(Supplier<CoordinationV1Api> api, K8sLeaseConfig config, Clock clock) {
    this.api = Objects.requireNonNull(api, "api");
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public LeaseInfo inspect() {
    V1Lease lease;
    try {
      lease = api.get().readNamespacedLease(config.name(), config.namespace()).execute();
    } catch (ApiException e) {
      return e.getCode() == 404
          ? LeaseInfo.absent(TYPE, config.location())
          : LeaseInfo.unreadable(
              TYPE, config.location(), "GET failed: " + K8sLeaseCoordinator.describe(e));
    } catch (RuntimeException e) {
      return LeaseInfo.unreadable(TYPE, config.location(), e.getMessage());
    }
    String holder = LeaseBodies.holder(lease);
    Optional<Instant> renewed = LeaseBodies.renewTime(lease);
    OptionalLong duration = LeaseBodies.durationSeconds(lease);
    Optional<Instant> expires =
        duration.isPresent()
            ? renewed.map(r -> r.plusSeconds(duration.getAsLong()))
            : Optional.empty();
    boolean held =
        !holder.isEmpty() && expires.isPresent() && clock.instant().isBefore(expires.get());
    return new LeaseInfo(
        TYPE,
        config.location(),
        held ? LeaseInfo.State.HELD : LeaseInfo.State.EXPIRED,
        holder.isEmpty() ? Optional.empty() : Optional.of(holder),
        LeaseBodies.acquireTime(lease),
        renewed,
        expires,
        OptionalLong.of(LeaseBodies.epoch(lease)),
        Optional.empty());
  }
}
