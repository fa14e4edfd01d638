package io.sf2loki.coordinate.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Default holder identities. They must be unique per process; in containers the pid is often 1, so
 * the default carries a random per-process suffix.
 */
public final class HolderIds {

  private HolderIds() {}

  /** {@code hostname-pid-xxxxxx}: host name, process id and six random hex digits. */
  public static String hostPidRandom(Map<String, String> environment, RandomGenerator random) {
    return hostname(environment)
        + "-"
        + ProcessHandle.current().pid()
        + "-"
        + HexFormat.of().toHexDigits(random.nextInt()).substring(2);
  }

  /** {@code $HOSTNAME} (the pod name in Kubernetes), else {@code hostname-pid}. */
  public static String podName(Map<String, String> environment) {
    Optional<String> pod =
        Optional.ofNullable(environment.get("HOSTNAME"))
            .map(String::trim)
            .filter(s -> !s.isEmpty());
    return pod.orElseGet(() -> hostname(environment) + "-" + ProcessHandle.current().pid());
  }

  private static String hostname(Map<String, String> environment) {
    String fromEnv = environment.get("HOSTNAME");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv.trim();
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
