package io.sf2loki.cli.doctor;

import io.kubernetes.client.openapi.ApiException;
import io.sf2loki.coordinate.k8s.K8sLeaseAccessReview;
import io.sf2loki.coordinate.k8s.K8sLeaseConfig;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code k8s_rbac}: a SelfSubjectAccessReview per verb the election needs on its Leases ({@code
 * get} and {@code update} on each: the org's, or with orgs every org's and the roster's; {@code
 * create} in their namespace), with the coordinator's own credentials.
 */
final class K8sRbacCheck implements Check {

  private final K8sLeaseConfig config;
  private final List<String> leases;

  /** The check of a single org's Lease, {@code coordinate.k8s_lease.name}. */
  K8sRbacCheck(K8sLeaseConfig config) {
    this(config, List.of(config.name()));
  }

  /**
   * The check of {@code leases} in {@code config}'s namespace ({@link
   * K8sLeaseAccessReview#leasesOf}).
   */
  K8sRbacCheck(K8sLeaseConfig config, List<String> leases) {
    this.config = config;
    this.leases = List.copyOf(leases);
  }

  @Override
  public String name() {
    return "k8s_rbac";
  }

  @Override
  public CheckResult run(DoctorContext context) {
    String names = leases.stream().map(l -> "leases/" + l).collect(Collectors.joining(", "));
    String fix =
        "bind a Role granting get, update and create on leases (apiGroup coordination.k8s.io) in"
            + " namespace "
            + config.namespace()
            + (leases.size() > 1 ? ", its resourceNames listing " + String.join(", ", leases) : "")
            + ", to sf2loki's service account (deploy/ has one)";
    List<K8sLeaseAccessReview.Verdict> verdicts;
    try {
      verdicts = K8sLeaseAccessReview.of(config, context.variables(), leases).review();
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
    String what = names + " in namespace " + config.namespace();
    if (verdicts.stream().allMatch(K8sLeaseAccessReview.Verdict::allowed)) {
      return new CheckResult.Pass(
          String.join(", ", K8sLeaseAccessReview.VERBS) + " on " + what + " allowed");
    }
    return new CheckResult.Fail(
        "denied: "
            + verdicts.stream()
                .filter(v -> !v.allowed())
                .map(this::describe)
                .collect(Collectors.joining(", "))
            + " on "
            + what,
        fix);
  }

  /** {@code update (reason)}, naming the Lease when there are several. */
  private String describe(K8sLeaseAccessReview.Verdict v) {
    String lease = leases.size() > 1 && !v.lease().isEmpty() ? " leases/" + v.lease() : "";
    return v.verb() + lease + (v.reason().isEmpty() ? "" : " (" + v.reason() + ")");
  }
}
