package io.sf2loki.cli.doctor;

import java.util.List;

/**
 * One thing {@code doctor} verifies. {@link #run} is called on a worker thread under the run's
 * per-check timeout, which interrupts it; it may block on the network, returns its finding as a
 * {@link CheckResult} and throws only for failures it did not expect (reported as FAIL).
 */
public interface Check {

  /** The name printed and used in JSON ({@code auth}, {@code pubsub:/event/X}, ...). */
  String name();

  /** The checks that must PASS or WARN before this one runs; otherwise it is a SKIP. */
  default List<String> requires() {
    return List.of();
  }

  /** Runs the check. */
  CheckResult run(DoctorContext context) throws Exception;
}
