package io.sf2loki.cli.doctor;

import java.util.List;

/**
 * The findings of one run and the exit code they mean: 0 without a FAIL (WARN and SKIP are fine), 1
 * with any FAIL, 2 when the configuration could not be loaded.
 *
 * @param checks every check, in the order run
 * @param configLoaded false when the configuration failed to load or validate
 */
public record DoctorReport(List<CheckReport> checks, boolean configLoaded) {

  public DoctorReport {
    checks = List.copyOf(checks);
  }

  /** How many checks ended with {@code status}. */
  public long count(CheckResult.Status status) {
    return checks.stream().filter(c -> c.result().status() == status).count();
  }

  /** The exit code of {@code doctor}. */
  public int exitCode() {
    if (!configLoaded) {
      return 2;
    }
    return count(CheckResult.Status.FAIL) > 0 ? 1 : 0;
  }
}
