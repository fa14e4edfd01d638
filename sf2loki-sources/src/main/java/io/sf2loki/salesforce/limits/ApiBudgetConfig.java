package io.sf2loki.salesforce.limits;

import io.sf2loki.shape.ShapingConfig;
import io.sf2loki.spi.ConfigSection;
import java.time.Duration;

/**
 * {@code salesforce.api_share} and {@code salesforce.limits.*}.
 *
 * @param share the part of the org's daily API allocation sf2loki may spend in any rolling 24
 *     hours, {@code 0 < share <= 1}
 * @param limitsEnabled poll {@code /limits} for the org-limit gauges
 * @param limitsPollInterval the least time between two {@code /limits} polls
 * @param throttleBackoff the first pause after {@code REQUEST_LIMIT_EXCEEDED} (doubling up to 30×)
 */
public record ApiBudgetConfig(
    double share, boolean limitsEnabled, Duration limitsPollInterval, Duration throttleBackoff) {

  /** The defaults of reference.conf: 20 %, {@code /limits} every 5 minutes. */
  public static final ApiBudgetConfig DEFAULTS =
      new ApiBudgetConfig(0.2, true, Duration.ofMinutes(5), Duration.ofMinutes(1));

  /** The calls sf2loki may spend in any rolling 24 hours of an org allocated {@code dailyLimit}. */
  public long allowance(long dailyLimit) {
    return (long) Math.floor(share * dailyLimit);
  }

  /** Binds the keys of the {@code salesforce} section, recording every problem on it. */
  public static ApiBudgetConfig bind(ConfigSection salesforce) {
    double share = ShapingConfig.rate(salesforce, "api_share");
    ConfigSection limits = salesforce.section("limits");
    return new ApiBudgetConfig(
        share,
        limits.bool("enabled"),
        limits.positiveDuration("poll_interval"),
        limits.positiveDuration("throttle_backoff"));
  }
}
