package io.sf2loki.state.internal;

import io.sf2loki.pipeline.Sleeper;
import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * Bounded, jittered exponential retries of transient backend failures: attempt {@code n} (from 1)
 * waits a random time between {@code minBackoff} and {@code min(maxBackoff, minBackoff * 2^n)}.
 *
 * @param maxAttempts attempts in total, at least 1
 * @param minBackoff the shortest wait
 * @param maxBackoff the longest wait
 * @param sleeper how to wait (a recording one in tests)
 * @param jitter uniform random numbers in [0, 1)
 */
public record RetryPolicy(
    int maxAttempts,
    Duration minBackoff,
    Duration maxBackoff,
    Sleeper sleeper,
    DoubleSupplier jitter) {

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
    Objects.requireNonNull(minBackoff, "minBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    Objects.requireNonNull(sleeper, "sleeper");
    Objects.requireNonNull(jitter, "jitter");
  }

  /** The documented policy: {@code maxAttempts} attempts, 0.1 s to 2 s. */
  public static RetryPolicy standard(int maxAttempts) {
    return new RetryPolicy(
        maxAttempts,
        Duration.ofMillis(100),
        Duration.ofSeconds(2),
        Sleeper.SYSTEM,
        () -> java.util.concurrent.ThreadLocalRandom.current().nextDouble());
  }

  /** The wait before attempt {@code attempt + 1}, after {@code attempt} failures. */
  public Duration backoff(int attempt) {
    long min = minBackoff.toMillis();
    long cap = Math.min(maxBackoff.toMillis(), min << Math.min(attempt, 20));
    return Duration.ofMillis(min + (long) (jitter.getAsDouble() * Math.max(0, cap - min)));
  }
}
