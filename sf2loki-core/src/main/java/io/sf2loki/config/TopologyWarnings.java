package io.sf2loki.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Topologies that validate but cannot be safe, which {@code config check}, the daemon's {@code
 * --check} and its startup warn about, each warning saying why. Configuration cannot see the
 * mounts, so the file heuristics are deliberately simple and documented
 * (docs/deployment/high-availability .md, "Topology warnings"):
 *
 * <ul>
 *   <li>under a lease coordinator, a file store whose path is relative, under {@code /tmp}, {@code
 *       /var/tmp}, {@code /dev/shm} or a Kubernetes {@code emptyDir}: node-local, so each replica
 *       has its own checkpoints;
 *   <li>under {@code file_lease}, a state file outside the lease file's directory: the two must
 *       live on one volume every replica mounts;
 *   <li>under {@code k8s_lease}, any file store: safe only on one ReadWriteMany volume;
 *   <li>{@code service.shutdown_grace} not below the lease duration: the final drain runs without
 *       renewals, so the lease can expire mid-drain and the standby take over;
 *   <li>a {@code file_lease} ttl under 10s: expiry is compared on wall clocks across hosts.
 * </ul>
 */
public final class TopologyWarnings {

  private static final Duration SKEW_MARGIN = Duration.ofSeconds(10);
  private static final List<String> NODE_LOCAL = List.of("/tmp/", "/var/tmp/", "/dev/shm/");

  private TopologyWarnings() {}

  /** The warnings for {@code config}, in a stable order; empty when the topology looks sound. */
  public static List<String> of(Sf2LokiConfig config) {
    List<String> warnings = new ArrayList<>();
    if (!config.isCoordinated()) {
      return warnings;
    }
    String lease = "coordinate." + config.coordinatorType();
    Optional<Path> state = config.store().documentFile();
    Optional<Path> leaseFile = config.coordinator().leaseFile();
    state.ifPresent(path -> nodeLocal(path, config.coordinatorType()).ifPresent(warnings::add));
    if (state.isPresent() && leaseFile.isPresent()) {
      Path stateDir = directoryOf(state.get());
      Path leaseDir = directoryOf(leaseFile.get());
      if (!stateDir.equals(leaseDir)) {
        warnings.add(
            "state.file.path ("
                + state.get()
                + ") is not in the directory of "
                + lease
                + ".path ("
                + leaseFile.get()
                + "): both must live on one volume that every replica mounts; keep them in one"
                + " directory so that one shared mount carries both");
      }
    }
    if (state.isPresent() && "k8s_lease".equals(config.coordinatorType())) {
      warnings.add(
          "state.store is file under coordinate.type = k8s_lease: safe only when every pod mounts"
              + " one ReadWriteMany volume at "
              + directoryOf(state.get())
              + " (an emptyDir or a per-pod volume gives each pod its own checkpoints); prefer"
              + " state.store = s3 or gcs");
    }
    Duration grace = config.service().shutdownGrace();
    config
        .coordinator()
        .leaseDuration()
        .filter(duration -> grace.compareTo(duration) >= 0)
        .ifPresent(
            duration ->
                warnings.add(
                    "service.shutdown_grace ("
                        + Durations.format(grace)
                        + ") is not below the lease duration ("
                        + Durations.format(duration)
                        + ", "
                        + lease
                        + "): the final drain runs without renewing the lease, so a long drain"
                        + " lets it expire and the standby take over mid-drain (its last"
                        + " commits are then fenced and re-ingested); set shutdown_grace below"
                        + " the lease duration"));
    if ("file_lease".equals(config.coordinatorType())) {
      config
          .coordinator()
          .leaseDuration()
          .filter(ttl -> ttl.compareTo(SKEW_MARGIN) < 0)
          .ifPresent(
              ttl ->
                  warnings.add(
                      lease
                          + ".ttl ("
                          + Durations.format(ttl)
                          + ") is under 10s: file-lease expiry is compared on the wall clocks of"
                          + " different hosts, so clock skew (keep NTP running) eats into it"));
    }
    return warnings;
  }

  private static Optional<String> nodeLocal(Path path, String coordinatorType) {
    String text = path.toString();
    String why;
    if (!path.isAbsolute()) {
      why = "is relative, so it resolves against each replica's working directory";
    } else if (NODE_LOCAL.stream().anyMatch(prefix -> (text + "/").startsWith(prefix))) {
      why = "is under a node-local temporary directory";
    } else if (text.contains("kubernetes.io~empty-dir")) {
      why = "is on a Kubernetes emptyDir, which every pod has its own of";
    } else {
      return Optional.empty();
    }
    return Optional.of(
        "state.file.path ("
            + text
            + ") "
            + why
            + ": under coordinate.type = "
            + coordinatorType
            + " every replica must read and write the same file, or a failover resumes from"
            + " another replica's checkpoints");
  }

  private static Path directoryOf(Path file) {
    Path parent = file.toAbsolutePath().normalize().getParent();
    return parent == null ? file.toAbsolutePath().getRoot() : parent;
  }
}
