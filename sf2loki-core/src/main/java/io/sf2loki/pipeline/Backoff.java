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
   * Exponential backoff with jitter over the whole interval: the ceiling doubles from {@code min}
   * up to {@code max}, and each wait is drawn uniformly between half of {@code min} and the
   * ceiling, so lanes or replicas failing together spread out, the first retry included. Never
   * above {@code max}.
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
      long floor = Math.max(1, minNanos / 2);
      long spread = ceiling - floor;
      return Duration.ofNanos(floor + (spread > 0 ? random.nextLong(spread + 1) : 0));
    };
  }

  /**
   * Exponential backoff that never waits less than the doubled delay: {@code base × 2^(n-1)},
   * capped at {@code cap}, plus a jitter of up to half of that (so up to 1.5 × {@code cap}). For
   * reconnects and throttling, where waiting less than the schedule says would hammer the server.
   */
  static Backoff exponentialPlusHalf(Duration base, Duration cap, RandomGenerator random) {
    return attempt -> {
      long ms = base.toMillis() << Math.min(20, Math.max(0, attempt - 1));
      long capped = Math.min(cap.toMillis(), ms);
      long jitter = capped <= 1 ? 0 : random.nextLong(capped / 2 + 1);
      return Duration.ofMillis(capped + jitter);
    };
  }

  /** No wait at all (tests). */
  Backoff NONE = attempt -> Duration.ZERO;

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
