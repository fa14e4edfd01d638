package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Asks the API server, with the coordinator's own credentials, whether they may do what the
 * election does to its Leases: one {@code SelfSubjectAccessReview} per verb and Lease ({@code get}
 * and {@code update} on each named Lease: the org's, or with orgs every org's and the roster's),
 * then {@code create} in their namespace. Used by {@code doctor}; writes nothing but the reviews,
 * which the API server does not store.
 */
public final class K8sLeaseAccessReview {

  /** The verbs the election needs on {@code coordination.k8s.io/leases}. */
  public static final List<String> VERBS = List.of("get", "update", "create");

  private final AuthorizationV1Api api;
  private final K8sLeaseConfig config;
  private final List<String> leases;

  private K8sLeaseAccessReview(AuthorizationV1Api api, K8sLeaseConfig config, List<String> leases) {
    this.api = api;
    this.config = config;
    this.leases = List.copyOf(leases);
  }

  /**
   * The Leases a deployment of {@code orgLeases} uses: the one Lease of a single org; with two orgs
   * or more every org's and the roster ({@code <name>-roster}, {@link K8sLeaseRoster#nameFor}).
   *
   * @param name {@code coordinate.k8s_lease.name} as configured (the orgs' Leases derive from it)
   * @param orgLeases each org's Lease name, empty for a single-org configuration
   */
  public static List<String> leasesOf(String name, List<String> orgLeases) {
    if (orgLeases.isEmpty()) {
      return List.of(name);
    }
    List<String> out = new ArrayList<>(orgLeases);
    if (orgLeases.size() >= 2) {
      out.add(K8sLeaseRoster.nameFor(name));
    }
    return List.copyOf(out);
  }

  /**
   * A review with the credentials the coordinator would use (kubeconfig, else the in-cluster
   * service account).
   *
   * @param variables the process environment
   * @throws java.io.UncheckedIOException when the credentials cannot be read
   */
  public static K8sLeaseAccessReview of(K8sLeaseConfig config, Map<String, String> variables) {
    return of(config, variables, List.of(config.name()));
  }

  /**
   * A review of {@code leases} (in {@code config}'s namespace, {@link #leasesOf}) with the
   * credentials the coordinator would use.
   *
   * @throws java.io.UncheckedIOException when the credentials cannot be read
   */
  public static K8sLeaseAccessReview of(
      K8sLeaseConfig config, Map<String, String> variables, List<String> leases) {
    Objects.requireNonNull(config, "config");
    if (leases.isEmpty()) {
      throw new IllegalArgumentException("no Lease to review");
    }
    AuthorizationV1Api api =
        new AuthorizationV1Api(K8sLeaseCoordinatorProvider.api(config, variables).getApiClient());
    return new K8sLeaseAccessReview(api, config, leases);
  }

  /** The Leases reviewed, in order. */
  public List<String> leases() {
    return leases;
  }

  /**
   * The API server's answer for one verb.
   *
   * @param verb {@code get}, {@code update} or {@code create}
   * @param lease the Lease asked about, empty for a {@code create} (asked of the namespace)
   * @param allowed whether the credentials may
   * @param reason the authorizer's reason, empty when it gave none
   */
  public record Verdict(String verb, String lease, boolean allowed, String reason) {}

  /**
   * One review of {@code get} and {@code update} per Lease, in the order of {@link #leases()}, then
   * one of {@code create}.
   *
   * @throws ApiException when the API server refuses or fails a review (a 403 here means the
   *     credentials may not even ask, which no RBAC role forbids: they are not authenticated)
   */
  public List<Verdict> review() throws ApiException {
    List<Verdict> out = new ArrayList<>();
    for (String lease : leases) {
      for (String verb : VERBS) {
        if (!"create".equals(verb)) {
          out.add(ask(verb, lease));
        }
      }
    }
    out.add(ask("create", ""));
    return out;
  }

  private Verdict ask(String verb, String lease) throws ApiException {
    V1ResourceAttributes attributes =
        new V1ResourceAttributes()
            .group("coordination.k8s.io")
            .resource("leases")
            .verb(verb)
            .namespace(config.namespace());
    if (!lease.isEmpty()) {
      attributes.name(lease); // a create is authorised before the object has a name
    }
    V1SelfSubjectAccessReview answer =
        api.createSelfSubjectAccessReview(
                new V1SelfSubjectAccessReview()
                    .apiVersion("authorization.k8s.io/v1")
                    .kind("SelfSubjectAccessReview")
                    .spec(new V1SelfSubjectAccessReviewSpec().resourceAttributes(attributes)))
            .execute();
    V1SubjectAccessReviewStatus status = answer.getStatus();
    boolean allowed = status != null && Boolean.TRUE.equals(status.getAllowed());
    String reason = status == null || status.getReason() == null ? "" : status.getReason();
    return new Verdict(verb, lease, allowed, reason);
  }
}
