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
 * election does to its Lease: one {@code SelfSubjectAccessReview} per verb ({@code get} and {@code
 * update} on the named Lease, {@code create} in its namespace). Used by {@code doctor}; writes
 * nothing but the reviews, which the API server does not store.
 */
public final class K8sLeaseAccessReview {

  /** The verbs the election needs on {@code coordination.k8s.io/leases}. */
  public static final List<String> VERBS = List.of("get", "update", "create");

  private final AuthorizationV1Api api;
  private final K8sLeaseConfig config;

  private K8sLeaseAccessReview(AuthorizationV1Api api, K8sLeaseConfig config) {
    this.api = api;
    this.config = config;
  }

  /**
   * A review with the credentials the coordinator would use (kubeconfig, else the in-cluster
   * service account).
   *
   * @param variables the process environment
   * @throws java.io.UncheckedIOException when the credentials cannot be read
   */
  public static K8sLeaseAccessReview of(K8sLeaseConfig config, Map<String, String> variables) {
    Objects.requireNonNull(config, "config");
    AuthorizationV1Api api =
        new AuthorizationV1Api(K8sLeaseCoordinatorProvider.api(config, variables).getApiClient());
    return new K8sLeaseAccessReview(api, config);
  }

  /**
   * The API server's answer for one verb.
   *
   * @param verb {@code get}, {@code update} or {@code create}
   * @param allowed whether the credentials may
   * @param reason the authorizer's reason, empty when it gave none
   */
  public record Verdict(String verb, boolean allowed, String reason) {}

  /**
   * One review per verb of {@link #VERBS}, in that order.
   *
   * @throws ApiException when the API server refuses or fails a review (a 403 here means the
   *     credentials may not even ask, which no RBAC role forbids: they are not authenticated)
   */
  public List<Verdict> review() throws ApiException {
    List<Verdict> out = new ArrayList<>();
    for (String verb : VERBS) {
      V1ResourceAttributes attributes =
          new V1ResourceAttributes()
              .group("coordination.k8s.io")
              .resource("leases")
              .verb(verb)
              .namespace(config.namespace());
      if (!"create".equals(verb)) {
        attributes.name(config.name()); // a create is authorised before the object has a name
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
      out.add(new Verdict(verb, allowed, reason));
    }
    return out;
  }
}
