package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.sf2loki.coordinate.internal.AbstractLeaseCoordinator;
import io.sf2loki.coordinate.internal.DuplicateHolderException;
import io.sf2loki.coordinate.internal.EpochRule;
import io.sf2loki.coordinate.internal.LeaseTerm;
import io.sf2loki.coordinate.internal.RenewalSchedule;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.CoordinatorException;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election through a {@code coordination.k8s.io/v1} Lease (operations §2.4).
 *
 * <p>Staleness follows client-go's observedTime pattern on our <em>monotonic</em> clock: a Lease is
 * claimable once its resourceVersion has not changed for the Lease's own {@code
 * leaseDurationSeconds} since we first saw it; another host's {@code renewTime} is never compared
 * with our wall clock. Every write is a replace with the resourceVersion that was read (CAS); a 409
 * or 404 while holding means surrender now. A failed campaign call is thrown as a {@link
 * CoordinatorException} for the engine to back off from (or, for 401/403, give up on). Run on one
 * thread.
 */
public final class K8sLeaseCoordinator extends AbstractLeaseCoordinator {

  private static final Logger LOG = LoggerFactory.getLogger(K8sLeaseCoordinator.class);

  private final CoordinationV1Api api;
  private final K8sLeaseConfig config;
  private final String identity;
  private final Clock clock;
  private final Ticker ticker;
  private final EpochRule epochs;
  private final String instance = UUID.randomUUID().toString();
  private Optional<String> twinSeenVersion = Optional.empty();
  private Optional<String> twinSeenInstance = Optional.empty();
  private String observedVersion = "";
  private long observedAtNanos;
  private Optional<Duration> untilStale = Optional.empty();
  private V1Lease cached;
  private long lastGoodNanos;

  public K8sLeaseCoordinator(
      CoordinationV1Api api,
      String identity,
      K8sLeaseConfig config,
      CoordinatorEnvironment environment,
      Sleeper sleeper) {
    super(config.renewInterval(), sleeper, environment);
    this.api = Objects.requireNonNull(api, "api");
    this.identity = Objects.requireNonNull(identity, "identity");
    this.config = config;
    this.clock = environment.clock();
    this.ticker = environment.ticker();
    this.epochs = new EpochRule(environment.epochFloor(), config.location());
  }

  @Override
  public String location() {
    return config.location();
  }

  @Override
  public String holder() {
    return identity;
  }

  @Override
  protected Optional<LeaseTerm> campaign(StopSignal stop) throws InterruptedException {
    while (!stop.isStopRequested()) {
      Optional<LeaseTerm> won = attempt();
      if (won.isPresent()) {
        return won;
      }
      if (pause(untilNextPoll(nextPoll()), stop)) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * The renew interval, or less when the Lease last read turns stale sooner (by the observedTime
   * rule): polls one renew interval apart would otherwise claim a dead holder's Lease up to one
   * renew interval after it turned stale.
   */
  private Duration nextPoll() {
    return untilStale
        .filter(d -> d.compareTo(config.renewInterval()) < 0)
        .orElse(config.renewInterval());
  }

  private Optional<LeaseTerm> attempt() {
    untilStale = Optional.empty();
    V1Lease lease;
    try {
      lease = api.readNamespacedLease(config.name(), config.namespace()).execute();
    } catch (ApiException e) {
      if (e.getCode() != 404) {
        throw failure("read", e);
      }
      return attempt(null, 0);
    }
    if (!claimable(lease)) {
      refuseLiveTwin(lease);
      return Optional.empty();
    }
    return attempt(lease, LeaseBodies.epoch(lease));
  }

  /** A claim of a claimable Lease ({@code read == null}: absent), if the shard quota allows it. */
  private Optional<LeaseTerm> attempt(V1Lease read, long leaseEpoch) {
    if (!mayAttempt()) {
      return Optional.empty();
    }
    Optional<LeaseTerm> won = write(read, epochs.next(leaseEpoch));
    if (won.isEmpty()) {
      attemptLost();
    }
    return won;
  }

  /** Creates ({@code read == null}) or takes over the Lease; a 409 is a lost race. */
  private Optional<LeaseTerm> write(V1Lease read, long epoch) {
    long start = ticker.nanoTime();
    try {
      V1Lease written =
          read == null
              ? api.createNamespacedLease(
                      config.namespace(),
                      LeaseBodies.create(config, identity, instance, epoch, clock.instant()))
                  .execute()
              : api.replaceNamespacedLease(
                      config.name(),
                      config.namespace(),
                      LeaseBodies.takeOver(
                          read, config, identity, instance, epoch, clock.instant()))
                  .execute();
      cached = written;
      lastGoodNanos = start;
      LeaseTerm term =
          new LeaseTerm(identity, epoch, ticker, start + config.leaseDuration().toNanos());
      if (term.hasLapsed()) {
        // The write stalled past lease_duration (GC pause, hung connection): a term that is dead
        // at birth would only fence the engine's first commit. The Lease stays ours, so standbys
        // (and we) wait one duration on its new resourceVersion before anyone claims it.
        LOG.warn("claim of lease {} landed after lease_duration; abandoning it", location());
        return Optional.empty();
      }
      return Optional.of(term);
    } catch (ApiException e) {
      // 409, or a 404 on a takeover (deleted since it was read): another writer got in first
      boolean race = e.getCode() == 409 || (read != null && e.getCode() == 404);
      if (!race) {
        throw failure(read == null ? "create" : "replace", e);
      }
      LOG.info(
          "lost k8s-lease {} race for {}; backing off",
          read == null ? "create" : "replace",
          location());
      return Optional.empty();
    }
  }

  /**
   * A campaign call that failed: transport errors, 408, 429 and 5xx are transient; 401/403 (RBAC,
   * credentials), a 404 on create (no such namespace) and any other 4xx are permanent.
   */
  private CoordinatorException failure(String operation, ApiException e) {
    int code = e.getCode();
    String message = "cannot " + operation + " lease " + location() + " (" + describe(e) + ")";
    FailureClass failure;
    if (code == 0 || code == 408 || code == 429 || code >= 500) {
      failure = FailureClass.transientFailure("lease_unavailable", location());
    } else if (code == 401 || code == 403) {
      failure =
          FailureClass.permanent(
              "lease_access_denied",
              location(),
              "let the pod's service account (or the kubeconfig's user) get and update the Lease "
                  + config.name()
                  + " and create Leases in namespace "
                  + config.namespace()
                  + " (the Role in docs/deployment/high-availability.md)");
    } else if (code == 404) {
      failure =
          FailureClass.permanent(
              "lease_missing_namespace",
              location(),
              "create the namespace "
                  + config.namespace()
                  + ", or fix coordinate.k8s_lease.namespace");
    } else {
      failure =
          FailureClass.permanent(
              "lease_rejected",
              location(),
              "the API server rejects the Lease request as configured: check coordinate.k8s_lease");
    }
    return new CoordinatorException(message, e, failure);
  }

  /** observedTime staleness on our monotonic clock, against the Lease's own duration. */
  private boolean claimable(V1Lease lease) {
    String version = LeaseBodies.resourceVersion(lease);
    long now = ticker.nanoTime();
    if (!version.equals(observedVersion)) {
      observedVersion = version;
      observedAtNanos = now;
    }
    OptionalLong duration = LeaseBodies.durationSeconds(lease);
    if (LeaseBodies.holder(lease).isEmpty()
        || LeaseBodies.renewTime(lease).isEmpty()
        || duration.isEmpty()) {
      return true;
    }
    long stale = Duration.ofSeconds(duration.getAsLong()).toNanos() - (now - observedAtNanos);
    if (stale > 0) {
      untilStale = Optional.of(Duration.ofNanos(stale));
    }
    return stale <= 0;
  }

  @Override
  protected Optional<String> renew(LeaseTerm term, StopSignal stop) {
    Optional<Duration> late = renewals().lateFor(lapseNanos());
    if (late.isPresent()) {
      return Optional.of(RenewalSchedule.startedLate("the renewal", late.get(), "its term lapsed"));
    }
    V1Lease current = cached;
    try {
      current = api.readNamespacedLease(config.name(), config.namespace()).execute();
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return Optional.of("lease disappeared (deleted)");
      }
      LOG.warn("cannot read lease {} ({}); renewing the cached version", location(), describe(e));
    }
    if (!LeaseBodies.holder(current).equals(identity)) {
      return Optional.of("taken over by another holder (" + LeaseBodies.holder(current) + ")");
    }
    if (!ours(current)) {
      return Optional.of(
          "rewritten by another process using our identity "
              + identity
              + " (instance "
              + LeaseBodies.instance(current).orElse("none")
              + "): identities must be unique per process");
    }
    if (LeaseBodies.epoch(current) > term.epoch()) {
      return Optional.of("taken over at a higher epoch (" + LeaseBodies.epoch(current) + ")");
    }
    if (term.hasLapsed()) {
      // the renewal started in time (above), so the read took that long
      return Optional.of(
          "lease lapsed before it could be renewed: reading it ended "
              + renewals().lateFor(lapseNanos()).orElse(Duration.ZERO).toMillis()
              + " ms after the term lapsed");
    }
    long start = ticker.nanoTime();
    try {
      cached =
          api.replaceNamespacedLease(
                  config.name(),
                  config.namespace(),
                  LeaseBodies.renewed(current, config, clock.instant()))
              .execute();
    } catch (ApiException e) {
      return renewFailed(e);
    }
    if (!term.extendUntil(start + config.leaseDuration().toNanos())) {
      return Optional.of("lease lapsed while it was being renewed");
    }
    lastGoodNanos = start;
    renewals().renewed(lapseNanos());
    return Optional.empty();
  }

  /**
   * When the term lapses unless renewed: one lease_duration after the start of the last good write,
   * no later than a standby may claim (it waits a whole duration after it first saw that write).
   */
  private long lapseNanos() {
    return lastGoodNanos + config.leaseDuration().toNanos();
  }

  /** Retried while a retry can start a margin before the term lapses ({@link RenewalSchedule}). */
  private Optional<String> renewFailed(ApiException e) {
    if (e.getCode() == 409) {
      return Optional.of("renewal lost the CAS");
    }
    if (e.getCode() == 404) {
      return Optional.of("lease disappeared (deleted)");
    }
    Optional<Duration> retryIn = renewals().retry(lapseNanos());
    if (retryIn.isEmpty()) {
      return Optional.of(
          "renewal failing, and no retry can start before the term lapses at lease_duration ("
              + describe(e)
              + ")");
    }
    LOG.warn(
        "cannot renew lease {} ({}); retrying in {} ms, {} ms before the term lapses",
        location(),
        describe(e),
        retryIn.get().toMillis(),
        Duration.ofNanos(lapseNanos() - ticker.nanoTime()).toMillis());
    return Optional.empty();
  }

  @Override
  protected void release(LeaseTerm term) {
    try {
      V1Lease current = api.readNamespacedLease(config.name(), config.namespace()).execute();
      // only a Lease that still carries our token: another process with our identity may hold it
      if (ours(current) && LeaseBodies.epoch(current) == term.epoch()) {
        api.replaceNamespacedLease(
                config.name(), config.namespace(), LeaseBodies.released(current, clock.instant()))
            .execute();
      }
    } catch (ApiException e) {
      LOG.warn("cannot release lease {} ({}); it expires by itself", location(), describe(e));
    }
  }

  private boolean ours(V1Lease lease) {
    return LeaseBodies.holder(lease).equals(identity)
        && LeaseBodies.instance(lease).equals(Optional.of(instance));
  }

  /**
   * A live Lease with our identity but not our token is our crashed predecessor's (it never changes
   * and goes stale) or a twin's, another live process configured with our identity, which renews
   * it: a new resourceVersion under the same foreign token proves one.
   *
   * @throws DuplicateHolderException when a twin renewed the Lease
   */
  private void refuseLiveTwin(V1Lease lease) {
    if (!LeaseBodies.holder(lease).equals(identity) || ours(lease)) {
      twinSeenVersion = Optional.empty();
      return;
    }
    String version = LeaseBodies.resourceVersion(lease);
    Optional<String> theirs = LeaseBodies.instance(lease);
    boolean renewed =
        twinSeenVersion.isPresent()
            && !twinSeenVersion.get().equals(version)
            && twinSeenInstance.equals(theirs);
    twinSeenVersion = Optional.of(version);
    twinSeenInstance = theirs;
    if (renewed) {
      throw new DuplicateHolderException(
          location(),
          identity,
          "coordinate.k8s_lease.identity",
          theirs.orElse("(none written)"),
          instance);
    }
  }

  static String describe(ApiException e) {
    return e.getCode() == 0 ? "transport: " + e.getMessage() : "HTTP " + e.getCode();
  }
}
