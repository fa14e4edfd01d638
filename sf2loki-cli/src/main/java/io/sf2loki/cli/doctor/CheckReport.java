package io.sf2loki.cli.doctor;

import java.time.Duration;
import java.util.Objects;

/**
 * One line of the report.
 *
 * @param name the check's name
 * @param result what it found
 * @param elapsed how long it ran
 */
public record CheckReport(String name, CheckResult result, Duration elapsed) {

  public CheckReport {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(elapsed, "elapsed");
  }
}
