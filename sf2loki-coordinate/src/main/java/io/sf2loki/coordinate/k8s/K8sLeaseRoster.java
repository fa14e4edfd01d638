package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.Counter;
import io.sf2loki.coordinate.balance.Roster;
import io.sf2loki.coordinate.balance.RosterDocument;
import io.sf2loki.coordinate.balance.RosterException;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.RosterInfo;
import io.sf2loki.spi.Ticker;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

/**
 * The roster of a {@code k8s_lease} deployment of several orgs: the Lease {@code
 * <coordinate.k8s_lease.name>-roster} whose annotation {@value #ANNOTATION} holds the JSON map of
 * live replicas. Every update is a replace with the resourceVersion that was read (CAS); the Lease
 * is created when absent. Its spec stays empty: nobody holds it.
 *
 * <p>An update that lost the race (409: another replica wrote in between; or the Lease vanished or
 * appeared meanwhile) is read and tried again after a {@link Backoff} wait, at most {@value
 * #ATTEMPTS} attempts and not past half a renew interval after the first: replicas that heartbeat
 * in the same instant collide again when they retry at once, and the next heartbeat is due a renew
 * interval later anyway. Each retry is counted in {@code
 * sf2loki_shard_roster_retries_total{reason="conflict"}}; a run of conflicts that exhausts them is
 * a {@link RosterException} (a roster failure).
 */
public final class K8sLeaseRoster implements Roster {

  /** The annotation holding the roster. */
  public static final String ANNOTATION = "sf2loki.io/roster";

  /** Read-modify-replace rounds before a run of conflicts is reported. */
  static final int ATTEMPTS = 5;

  /** The shortest ceiling of the wait after a conflict (a few API round trips). */
  static final Duration CONFLICT_MIN_BACKOFF = Duration.ofMillis(100);

  /** The longest wait after a conflict. */
  static final Duration CONFLICT_MAX_BACKOFF = Duration.ofSeconds(1);

  private final Supplier<CoordinationV1Api> clients;
  private CoordinationV1Api api;
  private final String namespace;
  private final String name;
  private final Backoff backoff;
  private final Sleeper sleeper;
  private final Ticker ticker;
  private final long budgetNanos;
  private final Runnable retried;

  /**
   * @param clients makes the client on first use (building it reads the service account; a failure
   *     is a roster failure like any other)
   * @param config the configured (top-level) {@code coordinate.k8s_lease} section
   * @param backoff the wait before retry n after a conflict ({@link #conflictBackoff})
   * @param sleeper how to wait it
   * @param environment the ticker the retries' time bound is measured with, and the registry the
   *     retries are counted in
   */
  public K8sLeaseRoster(
      Supplier<CoordinationV1Api> clients,
      K8sLeaseConfig config,
      Backoff backoff,
      Sleeper sleeper,
      CoordinatorEnvironment environment) {
    this(
        clients,
        config,
        backoff,
        sleeper,
        environment.ticker(),
        Counter.builder("sf2loki_shard_roster_retries_total")
                .description(
                    "Roster updates tried again after a backoff: conflict, another replica wrote"
                        + " the roster Lease in between")
                .tag("reason", "conflict")
                .register(environment.metrics())
            ::increment);
  }

  private K8sLeaseRoster(
      Supplier<CoordinationV1Api> clients,
      K8sLeaseConfig config,
      Backoff backoff,
      Sleeper sleeper,
      Ticker ticker,
      Runnable retried) {
    this.clients = Objects.requireNonNull(clients, "clients");
    this.namespace = config.namespace();
    this.name = nameFor(config.name());
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.budgetNanos = config.renewInterval().dividedBy(2).toNanos();
    this.retried = Objects.requireNonNull(retried, "retried");
  }

  /**
   * The waits after conflicts: exponential from {@link #CONFLICT_MIN_BACKOFF} up to {@link
   * #CONFLICT_MAX_BACKOFF}, jittered by {@code random} so that colliding replicas spread out.
   */
  public static Backoff conflictBackoff(RandomGenerator random) {
    return Backoff.exponential(CONFLICT_MIN_BACKOFF, CONFLICT_MAX_BACKOFF, random);
  }

  /** {@code sf2loki-leader → sf2loki-leader-roster}. */
  public static String nameFor(String leaseName) {
    return leaseName + "-roster";
  }

  @Override
  public RosterDocument read() throws RosterException {
    Optional<V1Lease> lease = get();
    return lease.isEmpty() ? RosterDocument.EMPTY : parse(lease.get());
  }

  @Override
  public RosterDocument heartbeat(String replica, Instant expiresAt, Instant now)
      throws RosterException {
    return update(d -> d.live(now).with(replica, expiresAt), true);
  }

  @Override
  public void leave(String replica, Instant now) throws RosterException {
    update(d -> d.live(now).without(replica), false);
  }

  /** One read of the roster of {@code config}, for {@code lease show}; never throws. */
  public static RosterInfo inspect(Supplier<CoordinationV1Api> clients, K8sLeaseConfig config) {
    // a reader only: it never updates, so never retries
    K8sLeaseRoster roster =
        new K8sLeaseRoster(clients, config, Backoff.NONE, d -> {}, () -> 0L, () -> {});
    try {
      return new RosterInfo(roster.location(), roster.read().members(), Optional.empty());
    } catch (RosterException e) {
      return new RosterInfo(roster.location(), Map.of(), Optional.of(e.getMessage()));
    }
  }

  @Override
  public String location() {
    return namespace + "/" + name;
  }

  /**
   * Reads, changes and replaces the roster, again after a backoff on a conflict (see the class
   * comment); creates it when absent (when {@code create}).
   */
  private RosterDocument update(UnaryOperator<RosterDocument> change, boolean create)
      throws RosterException {
    long start = ticker.nanoTime();
    for (int conflicts = 1; ; conflicts++) {
      Optional<RosterDocument> written = tryUpdate(change, create);
      if (written.isPresent()) {
        return written.get();
      }
      Duration wait = backoff.delay(conflicts);
      if (conflicts >= ATTEMPTS || ticker.nanoTime() - start + wait.toNanos() > budgetNanos) {
        throw new RosterException(
            location(),
            conflicts
                + " updates in a row lost the resourceVersion race (other replicas wrote in"
                + " between)",
            false,
            null);
      }
      retried.run();
      try {
        sleeper.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RosterException(location(), "interrupted between conflicting updates", false, e);
      }
    }
  }

  /**
   * One read-modify-replace round; empty when it lost the race. A corrupt annotation is replaced,
   * then reported.
   */
  private Optional<RosterDocument> tryUpdate(UnaryOperator<RosterDocument> change, boolean create)
      throws RosterException {
    Optional<V1Lease> lease = get();
    if (lease.isEmpty()) {
      if (!create) {
        return Optional.of(RosterDocument.EMPTY);
      }
      RosterDocument next = change.apply(RosterDocument.EMPTY);
      return write(null, next) ? Optional.of(next) : Optional.empty();
    }
    RosterException corrupt = null;
    RosterDocument current;
    try {
      current = parse(lease.get());
    } catch (RosterException e) {
      corrupt = e;
      current = RosterDocument.EMPTY;
    }
    RosterDocument next = change.apply(current);
    if (!write(lease.get(), next)) {
      return Optional.empty();
    }
    if (corrupt != null) {
      throw new RosterException(location(), corrupt.getMessage() + "; rewritten", true, corrupt);
    }
    return Optional.of(next);
  }

  /** Creates ({@code read == null}) or replaces the roster; false on a conflict. */
  private boolean write(V1Lease read, RosterDocument document) throws RosterException {
    try {
      if (read == null) {
        api().createNamespacedLease(namespace, body(new V1Lease(), document)).execute();
      } else {
        api().replaceNamespacedLease(name, namespace, body(read, document)).execute();
      }
      return true;
    } catch (ApiException e) {
      if (e.getCode() == 409 || (read != null && e.getCode() == 404)) {
        return false;
      }
      throw failure(read == null ? "create" : "replace", e);
    }
  }

  private V1Lease body(V1Lease lease, RosterDocument document) {
    V1ObjectMeta meta = lease.getMetadata() == null ? new V1ObjectMeta() : lease.getMetadata();
    meta.name(name).namespace(namespace).putAnnotationsItem(ANNOTATION, document.toJson());
    return lease
        .apiVersion(LeaseBodies.API_VERSION)
        .kind(LeaseBodies.KIND)
        .metadata(meta)
        .spec(lease.getSpec() == null ? new V1LeaseSpec() : lease.getSpec());
  }

  private CoordinationV1Api api() throws RosterException {
    if (api == null) {
      try {
        api = clients.get();
      } catch (UncheckedIOException e) {
        throw new RosterException(location(), e.getMessage(), false, e);
      }
    }
    return api;
  }

  private Optional<V1Lease> get() throws RosterException {
    try {
      return Optional.of(api().readNamespacedLease(name, namespace).execute());
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw failure("read", e);
    }
  }

  private RosterDocument parse(V1Lease lease) throws RosterException {
    String json =
        Optional.ofNullable(lease.getMetadata())
            .map(V1ObjectMeta::getAnnotations)
            .map(a -> a.get(ANNOTATION))
            .orElse("{}");
    return RosterDocument.parse(json, location());
  }

  private RosterException failure(String operation, ApiException e) {
    return new RosterException(
        location(),
        "cannot "
            + operation
            + " ("
            + K8sLeaseCoordinator.describe(e)
            + (e.getCode() == 403 ? "; the Role's resourceNames must name " + name + " too" : "")
            + ")",
        false,
        e);
  }
}
