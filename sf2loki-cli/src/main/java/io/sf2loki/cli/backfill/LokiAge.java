package io.sf2loki.cli.backfill;

import io.sf2loki.config.ConfigReader;
import io.sf2loki.config.Durations;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.loki.TimeWindowConfig;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Loki's oldest accepted entry time for the configured tenant ({@code sink.loki.max_age}, less the
 * sink's {@link TimeWindowConfig#MAX_AGE_MARGIN}) and what the sink does with an older entry under
 * {@code sink.loki.late_policy}: re-timestamps it inside the window with the event time in {@code
 * event_time} structured metadata ({@code route}, {@code retimestamp}), or drops it ({@code drop}).
 *
 * @param maxAge {@code sink.loki.max_age}
 * @param latePolicy {@code sink.loki.late_policy}
 */
record LokiAge(Duration maxAge, String latePolicy) {

  /** From the validated configuration. */
  static LokiAge of(Sf2LokiConfig config) {
    ConfigReader loki = config.loaded().reader().section("sink.loki");
    return new LokiAge(loki.duration("max_age"), loki.string("late_policy"));
  }

  /** Entries with an event time before this are too old for Loki. */
  Instant cutoff(Instant now) {
    return now.minus(maxAge).plus(TimeWindowConfig.MAX_AGE_MARGIN).truncatedTo(ChronoUnit.SECONDS);
  }

  /** True when the sink drops too-old entries instead of re-timestamping them. */
  boolean drops() {
    return "drop".equals(latePolicy.toLowerCase(Locale.ROOT));
  }

  /** What happens to an entry older than {@link #cutoff}, for the operator. */
  String fate() {
    return drops()
        ? "dropped and counted (sink.loki.late_policy = drop)"
        : "re-timestamped inside Loki's window, the event time kept in structured metadata"
            + " event_time (sink.loki.late_policy = "
            + latePolicy
            + ")";
  }

  /** {@code <cutoff> (<describe>): their entries would be <fate>}, for a dry run's last line. */
  String beyond(Instant cutoff) {
    return cutoff + " (" + describe() + "): their entries would be " + fate();
  }

  /** {@code 7d less 1h}: the bound in the config's own words. */
  String describe() {
    return "sink.loki.max_age "
        + Durations.format(maxAge)
        + " less the sink's "
        + Durations.format(TimeWindowConfig.MAX_AGE_MARGIN)
        + " margin";
  }
}
