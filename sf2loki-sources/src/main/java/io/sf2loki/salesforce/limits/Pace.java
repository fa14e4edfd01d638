package io.sf2loki.salesforce.limits;

import java.time.Duration;

/** How fast the pollers may go now; {@link ApiBudget#pace()} decides. */
public sealed interface Pace {

  /** Whether a cycle may run now (it may not while paused). */
  boolean admits();

  /** The wait before the next cycle, given the configured {@code interval}. */
  Duration stretch(Duration interval);

  /** The gauge value: 0 normal, 1 slowed, 2 paused. */
  int level();

  /** Under 80 % of the share: the configured intervals. */
  record Normal() implements Pace {
    @Override
    public boolean admits() {
      return true;
    }

    @Override
    public Duration stretch(Duration interval) {
      return interval;
    }

    @Override
    public int level() {
      return 0;
    }
  }

  /** Near the share: intervals multiplied by {@code factor} (more than 1). */
  record Slowed(double factor) implements Pace {
    @Override
    public boolean admits() {
      return true;
    }

    @Override
    public Duration stretch(Duration interval) {
      return Duration.ofMillis((long) (interval.toMillis() * factor));
    }

    @Override
    public int level() {
      return 1;
    }
  }

  /**
   * No calls for {@code left}: the share is spent, or the org answered REQUEST_LIMIT_EXCEEDED.
   *
   * @param reason for the log line
   */
  record Paused(Duration left, String reason) implements Pace {
    private static final Duration MIN_WAIT = Duration.ofSeconds(1);

    @Override
    public boolean admits() {
      return false;
    }

    @Override
    public Duration stretch(Duration interval) {
      return left.compareTo(MIN_WAIT) < 0 ? MIN_WAIT : left;
    }

    @Override
    public int level() {
      return 2;
    }
  }
}
