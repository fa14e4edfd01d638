package io.sf2loki.engine;

import io.sf2loki.pipeline.Backoff;
import io.sf2loki.spi.FailureClass;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The failures in a row and what the engine does after each ({@link FailurePolicy}): wait the next
 * backoff and campaign again, or, at the last allowed attempt of a permanent failure, give up. Not
 * thread-safe: the engine's own thread uses it.
 */
final class FailureStreak {

  /** What the engine does after a failure. */
  sealed interface Next {}

  /**
   * Wait {@code pause}, then campaign again.
   *
   * @param failures failures in this streak, this one included
   * @param attempt permanent failures in this streak (0 for a transient one)
   */
  record BackOff(Duration pause, int failures, int attempt) implements Next {}

  /**
   * End the engine: a permanent failure reached its last attempt.
   *
   * @param attempts the attempts made
   */
  record GiveUp(int attempts) implements Next {}

  private final FailurePolicy policy;
  private final Backoff backoff;
  private int failures;
  private int permanent;

  FailureStreak(FailurePolicy policy, RandomGenerator random) {
    this.policy = policy;
    this.backoff = policy.backoff(random);
  }

  /** Counts {@code failure} and says what to do next. */
  Next failed(FailureClass failure) {
    failures++;
    if (failure.isPermanent() && ++permanent >= policy.permanentAttempts()) {
      return new GiveUp(permanent);
    }
    return new BackOff(backoff.delay(failures), failures, failure.isPermanent() ? permanent : 0);
  }

  /** A term ended after leading for {@code led}; one that led long enough ends the streak. */
  void termEnded(Duration led) {
    if (led.compareTo(policy.backoffMax()) >= 0) {
      failures = 0;
      permanent = 0;
    }
  }

  /** The permanent attempts allowed in a row. */
  int permanentAttempts() {
    return policy.permanentAttempts();
  }
}
