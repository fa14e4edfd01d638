package io.sf2loki.salesforce.auth;

import java.time.Duration;
import java.util.random.RandomGenerator;

/** How long to wait before retry number {@code n} (1-based). A policy, apart from the loops. */
@FunctionalInterface
public interface Backoff {

  /** No wait at all (tests). */
  Backoff NONE = n -> Duration.ZERO;

  Duration delay(int retry);

  /**
   * {@code base × 2^(n-1)}, capped, plus a jitter of up to half of that.
   *
   * @param random the jitter source (inject a seeded one in tests)
   */
  static Backoff exponential(Duration base, Duration cap, RandomGenerator random) {
    return n -> {
      long ms = base.toMillis() << Math.min(20, Math.max(0, n - 1));
      long capped = Math.min(cap.toMillis(), ms);
      long jitter = capped <= 1 ? 0 : random.nextLong(capped / 2 + 1);
      return Duration.ofMillis(capped + jitter);
    };
  }
}
