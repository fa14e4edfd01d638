package io.sf2loki.coordinate.internal;

import io.sf2loki.config.Durations;
import io.sf2loki.spi.ConfigSection;
import java.time.Duration;

/** A single missed renewal must not cost leadership: {@code renew_interval * 2 < duration}. */
public final class LeaseTimingRule {

  private LeaseTimingRule() {}

  /**
   * Records {@code <section>.<renewKey> (20s) must be less than half of <durationKey> (30s)} when
   * the rule is broken.
   */
  public static void check(
      ConfigSection r, String renewKey, Duration renew, String durationKey, Duration duration) {
    if (renew.multipliedBy(2).compareTo(duration) >= 0) {
      r.problem(
          renewKey,
          r.path(renewKey)
              + " ("
              + Durations.format(renew)
              + ") must be less than half of "
              + durationKey
              + " ("
              + Durations.format(duration)
              + ") so that a single missed renewal cannot cost leadership");
    }
  }
}
