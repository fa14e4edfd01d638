package io.sf2loki.engine;

import io.sf2loki.pipeline.Backoff;
import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How the engine answers failures ({@code service.permanent_failure_attempts}, {@code
 * service.failure_backoff_min}, {@code service.failure_backoff_max}): after each failed campaign or
 * term it waits an exponential backoff with jitter, from {@code backoffMin} doubling up to {@code
 * backoffMax}, and campaigns again; a permanent failure ends the engine at its {@code
 * permanentAttempts}-th attempt in a row. A term that led for at least {@code backoffMax} ends the
 * streak: the next failure starts again from the first attempt and the shortest wait.
 *
 * @param permanentAttempts attempts in a row before a permanent failure ends the engine, at least 1
 * @param backoffMin the ceiling of the first wait
 * @param backoffMax the longest wait, and how long a term must lead to end a streak
 */
public record FailurePolicy(int permanentAttempts, Duration backoffMin, Duration backoffMax) {

  public FailurePolicy {
    if (permanentAttempts < 1) {
      throw new IllegalArgumentException(
          "permanentAttempts must be at least 1: " + permanentAttempts);
    }
    Objects.requireNonNull(backoffMin, "backoffMin");
    if (backoffMin.isNegative() || backoffMin.isZero()) {
      throw new IllegalArgumentException("backoffMin must be positive: " + backoffMin);
    }
    if (Objects.requireNonNull(backoffMax, "backoffMax").compareTo(backoffMin) < 0) {
      throw new IllegalArgumentException(
          "backoffMax (" + backoffMax + ") must not be below backoffMin (" + backoffMin + ")");
    }
  }

  /** The documented defaults: 3 attempts, waits from 1s up to 1m. */
  public static FailurePolicy defaults() {
    return new FailurePolicy(3, Duration.ofSeconds(1), Duration.ofMinutes(1));
  }

  /** The waits, with {@code random}'s jitter. */
  public Backoff backoff(RandomGenerator random) {
    return Backoff.exponential(backoffMin, backoffMax, random);
  }
}
