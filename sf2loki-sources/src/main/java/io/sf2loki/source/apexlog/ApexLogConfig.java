package io.sf2loki.source.apexlog;

import io.sf2loki.shape.ShapingConfig;
import io.sf2loki.spi.ConfigSection;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The bound {@code sources.apexlog} section.
 *
 * @param users only logs of these usernames; empty means all
 * @param pollInterval time between listings (±10 % jitter)
 * @param lookback where the first run (or a run after a corrupt checkpoint) starts
 * @param maxBodyBytes larger logs ship as metadata only
 * @param maxBodyAttempts body attempts of one log before it ships as metadata only
 * @param downloadMaxAge a log older than this ships as metadata only once its body fails
 * @param sampleRate share of logs kept, by log Id
 * @param shaping transforms (the body is field {@code Body}) and metadata fields
 */
public record ApexLogConfig(
    List<String> users,
    Duration pollInterval,
    Duration lookback,
    long maxBodyBytes,
    int maxBodyAttempts,
    Duration downloadMaxAge,
    double sampleRate,
    ShapingConfig shaping) {

  private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9._%+\\-@]+");

  public ApexLogConfig {
    users = List.copyOf(users);
  }

  /** Binds and validates {@code section}, recording every problem on it. */
  public static ApexLogConfig bind(ConfigSection section) {
    List<String> users = section.stringList("users");
    for (String u : users) {
      if (!USERNAME.matcher(u).matches()) {
        section.problem("users", section.path("users") + ": '" + u + "' is not a valid username");
      }
    }
    return new ApexLogConfig(
        users,
        section.positiveDuration("poll_interval"),
        section.positiveDuration("lookback"),
        section.bytes("max_body_bytes", 1),
        section.intInRange("max_body_attempts", 1, 1000),
        section.positiveDuration("download_max_age"),
        ShapingConfig.rate(section, "sample"),
        ShapingConfig.bind(section));
  }
}
