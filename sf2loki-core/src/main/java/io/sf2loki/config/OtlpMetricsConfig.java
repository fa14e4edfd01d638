package io.sf2loki.config;

import io.sf2loki.spi.ConfigSection;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code service.metrics.otlp} section: the OTLP/HTTP metrics push.
 *
 * @param enabled whether the daemon pushes its metrics
 * @param url the receiver's metrics endpoint
 * @param step how often it pushes
 * @param timeout connect and read timeout of one push
 * @param headers extra HTTP headers of every push
 * @param resourceAttributes resource attributes added to or replacing the defaults
 */
public record OtlpMetricsConfig(
    boolean enabled,
    URI url,
    Duration step,
    Duration timeout,
    Map<String, String> headers,
    Map<String, String> resourceAttributes) {

  public OtlpMetricsConfig {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(timeout, "timeout");
    headers = Map.copyOf(headers);
    resourceAttributes = Map.copyOf(resourceAttributes);
  }

  /** Binds and validates {@code service.metrics.otlp}. */
  public static OtlpMetricsConfig bind(ConfigSection r) {
    Duration step = r.positiveDuration("step");
    Duration timeout = r.positiveDuration("timeout");
    if (timeout.compareTo(step) > 0) {
      r.problem(
          "timeout",
          r.path("timeout")
              + " ("
              + Durations.format(timeout)
              + ") must not be above "
              + r.path("step")
              + " ("
              + Durations.format(step)
              + "): a push would still run when the next one is due");
    }
    return new OtlpMetricsConfig(
        r.bool("enabled"),
        Urls.required(r, "url"),
        step,
        timeout,
        r.stringMap("headers"),
        r.stringMap("resource_attributes"));
  }
}
