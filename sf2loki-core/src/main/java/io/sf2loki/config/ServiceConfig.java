package io.sf2loki.config;

import io.sf2loki.spi.ConfigSection;
import java.time.Duration;
import java.util.Set;

/**
 * The {@code service} section: the daemon's endpoints, shutdown and logging.
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
 * @param logFormat {@code text} or {@code json}
 */
public record ServiceConfig(
    String httpHost,
    int httpPort,
    Duration shutdownGrace,
    Duration unreadyAfterSinkFailing,
    Duration unreadyAfterStall,
    Duration livenessTimeout,
    String logLevel,
    String logFormat) {

  /** Binds and validates {@code service}. */
  public static ServiceConfig bind(ConfigSection r) {
    return new ServiceConfig(
        r.requiredString("http_host"),
        r.intInRange("http_port", 0, 65535),
        r.positiveDuration("shutdown_grace"),
        r.duration("unready_after_sink_failing"),
        r.duration("unready_after_stall"),
        r.duration("liveness_timeout"),
        r.oneOf("log_level", Set.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR")),
        r.oneOf("log_format", Set.of("text", "json")));
  }
}
