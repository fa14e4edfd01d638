package io.sf2loki.pipeline;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How long to wait before retry number {@code attempt} (1 for the first retry). A policy, kept out
 * of the retry loops so tests can pin it.
 */
@FunctionalInterface
public interface Backoff {

  /** The wait before retry {@code attempt} (1-based). */
  Duration delay(int attempt);

  /**
   * Jittered exponential backoff: the ceiling doubles from {@code min} up to {@code max}, and the
   * wait is drawn uniformly from the upper half of the ceiling (never below {@code min}), so that
   * two lanes or two replicas failing together spread out.
   */
  static Backoff exponential(Duration min, Duration max, RandomGenerator random) {
    long minNanos = Math.max(1, min.toNanos());
    long maxNanos = Math.max(minNanos, max.toNanos());
    return attempt -> {
      int shift = Math.min(Math.max(attempt, 1) - 1, 40);
      long ceiling = minNanos << shift;
      if (ceiling <= 0 || ceiling > maxNanos) {
        ceiling = maxNanos;
      }
      long half = ceiling / 2;
      long jittered = half + (half > 0 ? random.nextLong(half + 1) : 0);
      return Duration.ofNanos(Math.max(minNanos, jittered));
    };
  }

  /** The same wait every time (tests). */
  static Backoff fixed(Duration delay) {
    return attempt -> delay;
  }

  /**
   * The wait to use when the server asked for {@code retryAfter}: at least that, capped at {@code
   * cap}, and never shorter than this policy's own wait.
   */
  static Duration honouring(Duration own, Duration retryAfter, Duration cap) {
    Duration asked = retryAfter.compareTo(cap) > 0 ? cap : retryAfter;
    return asked.compareTo(own) > 0 ? asked : own;
  }
}
