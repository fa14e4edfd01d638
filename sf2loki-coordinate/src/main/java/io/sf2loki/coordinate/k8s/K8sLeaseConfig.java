package io.sf2loki.coordinate.k8s;

import io.sf2loki.coordinate.internal.LeaseTimingRule;
import io.sf2loki.spi.ConfigSection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code coordinate.k8s_lease} section.
 *
 * @param namespace namespace of the Lease
 * @param name name of the Lease
 * @param identity this replica's identity; empty means {@code $HOSTNAME}, else nodename-pid
 * @param leaseDuration how long a Lease is valid without renewal, whole seconds
 * @param renewInterval how often the leader renews and a standby polls; less than half the duration
 * @param kubeconfig a kubeconfig file; empty means the in-cluster service account
 */
public record K8sLeaseConfig(
    String namespace,
    String name,
    Optional<String> identity,
    Duration leaseDuration,
    Duration renewInterval,
    Optional<Path> kubeconfig) {

  private static final Pattern DNS_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");

  public K8sLeaseConfig {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(leaseDuration, "leaseDuration");
    Objects.requireNonNull(renewInterval, "renewInterval");
    Objects.requireNonNull(kubeconfig, "kubeconfig");
  }

  /** Binds {@code coordinate.k8s_lease}, recording every problem on {@code r}. */
  public static K8sLeaseConfig bind(ConfigSection r) {
    String namespace = dnsName(r, "namespace");
    String name = dnsName(r, "name");
    Duration duration = r.positiveDuration("lease_duration");
    if (duration.toNanos() % 1_000_000_000L != 0) {
      r.problem(
          "lease_duration", r.path("lease_duration") + " must be whole seconds (Lease field)");
    }
    Duration renew = r.positiveDuration("renew_interval");
    LeaseTimingRule.check(r, "renew_interval", renew, "lease_duration", duration);
    return new K8sLeaseConfig(
        namespace,
        name,
        r.optionalString("identity"),
        duration,
        renew,
        r.optionalString("kubeconfig").map(Path::of));
  }

  private static String dnsName(ConfigSection r, String key) {
    String value = r.requiredString(key);
    if (!value.isEmpty() && (value.length() > 253 || !DNS_NAME.matcher(value).matches())) {
      r.problem(
          key,
          r.path(key)
              + " ('"
              + value
              + "') must be a DNS subdomain name (lower case, digits, '-')");
    }
    return value;
  }

  /** {@code namespace/name}, for messages. */
  public String location() {
    return namespace + "/" + name;
  }

  /** {@code leaseDurationSeconds} as written into the Lease. */
  public int leaseDurationSeconds() {
    return (int) Math.max(1, leaseDuration.getSeconds());
  }
}
