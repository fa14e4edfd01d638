package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Lease bodies. Every body carries {@code apiVersion} and {@code kind} (a real apiserver does not
 * need them; the mock does). Updates modify the object that was read, so labels, annotations and
 * its resourceVersion (the CAS) survive.
 */
final class LeaseBodies {

  static final String API_VERSION = "coordination.k8s.io/v1";
  static final String KIND = "Lease";

  /**
   * The annotation holding the writer's random per-process token: two processes configured with one
   * identity write different tokens, so neither takes the other's Lease for its own.
   */
  static final String INSTANCE = "sf2loki.io/instance";

  private LeaseBodies() {}

  /** A new Lease held by {@code holder} at {@code epoch}, without an instance token. */
  static V1Lease create(K8sLeaseConfig config, String holder, long epoch, Instant now) {
    return new V1Lease()
        .apiVersion(API_VERSION)
        .kind(KIND)
        .metadata(new V1ObjectMeta().name(config.name()).namespace(config.namespace()))
        .spec(acquired(new V1LeaseSpec(), config, holder, epoch, now));
  }

  /** A new Lease held by {@code holder} (process {@code instance}) at {@code epoch}. */
  static V1Lease create(
      K8sLeaseConfig config, String holder, String instance, long epoch, Instant now) {
    return withInstance(create(config, holder, epoch, now), instance);
  }

  /** {@code read} taken over by {@code holder} (process {@code instance}) at {@code epoch}. */
  static V1Lease takeOver(
      V1Lease read,
      K8sLeaseConfig config,
      String holder,
      String instance,
      long epoch,
      Instant now) {
    V1LeaseSpec spec = read.getSpec() == null ? new V1LeaseSpec() : read.getSpec();
    return withInstance(
        read.apiVersion(API_VERSION).kind(KIND).spec(acquired(spec, config, holder, epoch, now)),
        instance);
  }

  /** The writer's instance token, when it wrote one. */
  static Optional<String> instance(V1Lease lease) {
    return Optional.ofNullable(lease.getMetadata())
        .map(V1ObjectMeta::getAnnotations)
        .map(a -> a.get(INSTANCE));
  }

  private static V1Lease withInstance(V1Lease lease, String instance) {
    if (lease.getMetadata() == null) {
      lease.metadata(new V1ObjectMeta());
    }
    lease.getMetadata().putAnnotationsItem(INSTANCE, instance);
    return lease;
  }

  /** {@code read} renewed: only renewTime (and the duration) change. */
  static V1Lease renewed(V1Lease read, K8sLeaseConfig config, Instant now) {
    V1LeaseSpec spec = read.getSpec() == null ? new V1LeaseSpec() : read.getSpec();
    return read.apiVersion(API_VERSION)
        .kind(KIND)
        .spec(spec.renewTime(micro(now)).leaseDurationSeconds(config.leaseDurationSeconds()));
  }

  /** {@code read} released: no holder, so a standby may claim it at once; the epoch stays. */
  static V1Lease released(V1Lease read, Instant now) {
    V1LeaseSpec spec = read.getSpec() == null ? new V1LeaseSpec() : read.getSpec();
    return read.apiVersion(API_VERSION)
        .kind(KIND)
        .spec(spec.holderIdentity("").renewTime(micro(now)).leaseDurationSeconds(1));
  }

  private static V1LeaseSpec acquired(
      V1LeaseSpec spec, K8sLeaseConfig config, String holder, long epoch, Instant now) {
    return spec.holderIdentity(holder)
        .leaseDurationSeconds(config.leaseDurationSeconds())
        .acquireTime(micro(now))
        .renewTime(micro(now))
        .leaseTransitions(EpochBound.leaseTransitions(epoch, config.location()));
  }

  static String holder(V1Lease lease) {
    V1LeaseSpec spec = lease.getSpec();
    return spec == null || spec.getHolderIdentity() == null ? "" : spec.getHolderIdentity();
  }

  static long epoch(V1Lease lease) {
    V1LeaseSpec spec = lease.getSpec();
    return spec == null || spec.getLeaseTransitions() == null
        ? 0
        : Math.max(0, spec.getLeaseTransitions());
  }

  static OptionalLong durationSeconds(V1Lease lease) {
    V1LeaseSpec spec = lease.getSpec();
    return spec == null || spec.getLeaseDurationSeconds() == null
        ? OptionalLong.empty()
        : OptionalLong.of(spec.getLeaseDurationSeconds());
  }

  static Optional<Instant> renewTime(V1Lease lease) {
    return Optional.ofNullable(lease.getSpec())
        .map(V1LeaseSpec::getRenewTime)
        .map(OffsetDateTime::toInstant);
  }

  static Optional<Instant> acquireTime(V1Lease lease) {
    return Optional.ofNullable(lease.getSpec())
        .map(V1LeaseSpec::getAcquireTime)
        .map(OffsetDateTime::toInstant);
  }

  static String resourceVersion(V1Lease lease) {
    return lease.getMetadata() == null || lease.getMetadata().getResourceVersion() == null
        ? ""
        : lease.getMetadata().getResourceVersion();
  }

  private static OffsetDateTime micro(Instant now) {
    return now.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
  }
}
