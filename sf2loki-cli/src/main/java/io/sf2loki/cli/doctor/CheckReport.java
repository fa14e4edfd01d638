package io.sf2loki.cli.doctor;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One line of the report.
 *
 * @param name the check's name
 * @param org the org the check ran for, with {@code orgs}; empty for a single-org configuration's
 *     checks and for the checks every org shares (Loki, Kubernetes RBAC)
 * @param result what it found
 * @param elapsed how long it ran
 */
public record CheckReport(String name, Optional<String> org, CheckResult result, Duration elapsed) {

  public CheckReport {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(elapsed, "elapsed");
  }

  /** A line of no org. */
  public CheckReport(String name, CheckResult result, Duration elapsed) {
    this(name, Optional.empty(), result, elapsed);
  }

  /** This line, as found for {@code org}. */
  CheckReport of(String org) {
    return new CheckReport(name, Optional.of(org), result, elapsed);
  }

  /** {@code [org] name}, or the name alone: how the table names the line. */
  String label() {
    return org.map(o -> "[" + o + "] " + name).orElse(name);
  }
}
