package io.sf2loki.cli.doctor;

import io.kubernetes.client.openapi.ApiException;
import io.sf2loki.coordinate.k8s.K8sLeaseAccessReview;
import io.sf2loki.coordinate.k8s.K8sLeaseConfig;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code k8s_rbac}: a SelfSubjectAccessReview per verb the election needs on its Lease ({@code
 * get}, {@code update}, {@code create}), with the coordinator's own credentials.
 */
final class K8sRbacCheck implements Check {

  private final K8sLeaseConfig config;

  K8sRbacCheck(K8sLeaseConfig config) {
    this.config = config;
  }

  @Override
  public String name() {
    return "k8s_rbac";
  }

  @Override
  public CheckResult run(DoctorContext context) {
    String fix =
        "bind a Role granting get, update and create on leases (apiGroup coordination.k8s.io) in"
            + " namespace "
            + config.namespace()
            + " to sf2loki's service account (deploy/ has one)";
    List<K8sLeaseAccessReview.Verdict> verdicts;
    try {
      verdicts = K8sLeaseAccessReview.of(config, context.variables()).review();
    } catch (UncheckedIOException e) {
      return new CheckResult.Fail(
          e.getMessage(),
          "run sf2loki in a pod with a service account, or set coordinate.k8s_lease.kubeconfig");
    } catch (ApiException e) {
      return new CheckResult.Fail(
          "SelfSubjectAccessReview failed with HTTP " + e.getCode(),
          "check the Kubernetes credentials (kubeconfig or service account token) and the API"
              + " server address");
    }
    List<String> denied =
        verdicts.stream()
            .filter(v -> !v.allowed())
            .map(K8sLeaseAccessReview.Verdict::verb)
            .toList();
    String what = "leases/" + config.name() + " in namespace " + config.namespace();
    if (verdicts.stream().allMatch(K8sLeaseAccessReview.Verdict::allowed)) {
      return new CheckResult.Pass(
          String.join(", ", K8sLeaseAccessReview.VERBS) + " on " + what + " allowed");
    }
    return new CheckResult.Fail(
        "denied: "
            + verdicts.stream()
                .filter(v -> !v.allowed())
                .map(v -> v.verb() + (v.reason().isEmpty() ? "" : " (" + v.reason() + ")"))
                .collect(Collectors.joining(", "))
            + " on "
            + what,
        fix);
  }
}
