package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.sf2loki.coordinate.balance.Roster;
import io.sf2loki.coordinate.balance.RosterDocument;
import io.sf2loki.coordinate.balance.RosterException;
import io.sf2loki.spi.RosterInfo;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The roster of a {@code k8s_lease} deployment of several orgs: the Lease {@code
 * <coordinate.k8s_lease.name>-roster} whose annotation {@value #ANNOTATION} holds the JSON map of
 * live replicas. Every update is a replace with the resourceVersion that was read (CAS), retried on
 * a conflict; the Lease is created when absent. Its spec stays empty: nobody holds it.
 */
public final class K8sLeaseRoster implements Roster {

  /** The annotation holding the roster. */
  public static final String ANNOTATION = "sf2loki.io/roster";

  /** Read-modify-replace rounds before a run of conflicts is reported. */
  static final int ATTEMPTS = 5;

  private final Supplier<CoordinationV1Api> clients;
  private CoordinationV1Api api;
  private final String namespace;
  private final String name;

  /**
   * @param clients makes the client on first use (building it reads the service account; a failure
   *     is a roster failure like any other)
   * @param config the configured (top-level) {@code coordinate.k8s_lease} section
   */
  public K8sLeaseRoster(Supplier<CoordinationV1Api> clients, K8sLeaseConfig config) {
    this.clients = Objects.requireNonNull(clients, "clients");
    this.namespace = config.namespace();
    this.name = nameFor(config.name());
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

  /** One read for {@code lease show}; never throws. */
  public RosterInfo inspect() {
    try {
      return new RosterInfo(location(), read().members(), Optional.empty());
    } catch (RosterException e) {
      return new RosterInfo(location(), Map.of(), Optional.of(e.getMessage()));
    }
  }

  @Override
  public String location() {
    return namespace + "/" + name;
  }

  /**
   * Reads, changes and replaces the roster, again on a conflict; creates it when absent (when
   * {@code create}). A corrupt annotation is replaced, then reported.
   */
  private RosterDocument update(UnaryOperator<RosterDocument> change, boolean create)
      throws RosterException {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<V1Lease> lease = get();
      if (lease.isEmpty()) {
        if (!create) {
          return RosterDocument.EMPTY;
        }
        RosterDocument next = change.apply(RosterDocument.EMPTY);
        if (write(null, next)) {
          return next;
        }
        continue;
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
      if (write(lease.get(), next)) {
        if (corrupt != null) {
          throw new RosterException(
              location(), corrupt.getMessage() + "; rewritten", true, corrupt);
        }
        return next;
      }
    }
    throw new RosterException(
        location(), ATTEMPTS + " updates in a row lost the resourceVersion race", false, null);
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
