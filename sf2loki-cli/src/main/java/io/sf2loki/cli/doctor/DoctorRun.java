package io.sf2loki.cli.doctor;

import io.sf2loki.config.Durations;
import io.sf2loki.spi.NamedThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs checks in order, each on a worker thread under the per-check timeout, so that one endpoint
 * that never answers costs one timeout and doctor never hangs. A check whose prerequisite did not
 * PASS or WARN is a SKIP; one that times out or throws is a FAIL. A timed-out check is interrupted
 * and abandoned; its daemon thread cannot keep the process alive.
 */
public final class DoctorRun {

  private final Duration timeout;

  /**
   * @param timeout how long each check may take
   */
  public DoctorRun(Duration timeout) {
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("the per-check timeout must be positive: " + timeout);
    }
  }

  /** Runs {@code checks} and reports each, in order; {@code done} are earlier reports. */
  public List<CheckReport> run(List<Check> checks, DoctorContext context, List<CheckReport> done)
      throws InterruptedException {
    List<CheckReport> out = new ArrayList<>(done);
    Map<String, CheckResult.Status> statuses = new HashMap<>();
    done.forEach(r -> statuses.put(r.name(), r.result().status()));
    ExecutorService workers = Executors.newCachedThreadPool(new NamedThreadFactory("doctor"));
    try {
      for (Check check : checks) {
        CheckResult result =
            unmet(check, statuses).<CheckResult>map(CheckResult.Skip::new).orElse(null);
        long start = System.nanoTime();
        if (result == null) {
          result = runOne(check, context, workers);
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        statuses.put(check.name(), result.status());
        out.add(new CheckReport(check.name(), result, elapsed));
      }
    } finally {
      workers.shutdownNow();
    }
    return out;
  }

  private static java.util.Optional<String> unmet(
      Check check, Map<String, CheckResult.Status> statuses) {
    for (String required : check.requires()) {
      CheckResult.Status s = statuses.get(required);
      if (s != CheckResult.Status.PASS && s != CheckResult.Status.WARN) {
        return java.util.Optional.of(
            "needs " + required + (s == null ? ", which did not run" : ", which is " + s.name()));
      }
    }
    return java.util.Optional.empty();
  }

  private CheckResult runOne(Check check, DoctorContext context, ExecutorService workers)
      throws InterruptedException {
    Future<CheckResult> future = workers.submit(() -> check.run(context));
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      return new CheckResult.Fail(
          "no answer within " + Durations.format(timeout),
          "check that the endpoint is reachable from this host (DNS, firewall, proxy); raise"
              + " --timeout if it is just slow");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      String message = cause.getMessage();
      return new CheckResult.Fail(
          cause.getClass().getSimpleName() + (message == null ? "" : ": " + message),
          "unexpected failure; rerun with --debug and report it if the message does not help");
    }
  }
}
