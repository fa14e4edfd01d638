package io.sf2loki.config;

import io.sf2loki.spi.ConfigSection;
import java.time.Duration;
import java.util.Set;

/**
 * The {@code service} section: the daemon's endpoints, metrics push, shutdown and logging.
 *
 * @param httpHost bind address of the health/metrics server
 * @param httpPort its port (0 picks a free one)
 * @param shutdownGrace drain budget of a graceful stop
 * @param unreadyAfterSinkFailing readiness turns degraded after this long of failing pushes; zero
 *     disables
 * @param unreadyAfterStall readiness turns degraded after a lane held queued entries this long
 *     without delivering, attempting or handing on anything; zero disables
 * @param livenessTimeout liveness turns unhealthy after the engine's heartbeat is this old; zero
 *     disables
 * @param logLevel root log level
 * @param logFormat {@code text}, {@code json} or {@code logfmt}
 * @param logSummaryInterval interval of the periodic INFO summary line; zero disables
 * @param metricsOtlp the OTLP metrics push ({@code metrics.otlp})
 * @param permanentFailureAttempts attempts in a row before a permanent failure ends the process
 * @param failureBackoffMin the first wait after a failed campaign or term
 * @param failureBackoffMax the longest wait; a term that led this long ends a failure streak
 */
public record ServiceConfig(
    String httpHost,
    int httpPort,
    Duration shutdownGrace,
    Duration unreadyAfterSinkFailing,
    Duration unreadyAfterStall,
    Duration livenessTimeout,
    String logLevel,
    String logFormat,
    Duration logSummaryInterval,
    OtlpMetricsConfig metricsOtlp,
    int permanentFailureAttempts,
    Duration failureBackoffMin,
    Duration failureBackoffMax) {

  /** Binds and validates {@code service}. */
  public static ServiceConfig bind(ConfigSection r) {
    Duration min = r.positiveDuration("failure_backoff_min");
    return new ServiceConfig(
        r.requiredString("http_host"),
        r.intInRange("http_port", 0, 65535),
        r.positiveDuration("shutdown_grace"),
        r.duration("unready_after_sink_failing"),
        r.duration("unready_after_stall"),
        r.duration("liveness_timeout"),
        r.oneOf("log_level", Set.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR")),
        r.oneOf("log_format", Set.of("text", "json", "logfmt")),
        r.duration("log_summary_interval"),
        OtlpMetricsConfig.bind(r.section("metrics.otlp")),
        r.intInRange("permanent_failure_attempts", 1, 100),
        min,
        backoffMax(r, min));
  }

  private static Duration backoffMax(ConfigSection r, Duration min) {
    Duration max = r.positiveDuration("failure_backoff_max");
    if (max.compareTo(min) < 0) {
      r.problem(
          "failure_backoff_max",
          r.path("failure_backoff_max")
              + " ("
              + Durations.format(max)
              + ") must not be below "
              + r.path("failure_backoff_min")
              + " ("
              + Durations.format(min)
              + ")");
      return min;
    }
    return max;
  }
}
