package io.sf2loki.daemon.metrics;

import io.micrometer.registry.otlp.AggregationTemporality;
import io.micrometer.registry.otlp.CompressionMode;
import io.micrometer.registry.otlp.HistogramFlavor;
import io.micrometer.registry.otlp.OtlpConfig;
import io.sf2loki.config.OtlpMetricsConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code service.metrics.otlp} as Micrometer's {@link OtlpConfig}. Every setting Micrometer would
 * otherwise read from {@code OTEL_*} environment variables is given here, so the push depends on
 * the configuration only.
 */
final class OtlpSettings implements OtlpConfig {

  private final OtlpMetricsConfig config;
  private final Map<String, String> resource;

  /**
   * @param config the section
   * @param instanceId this replica's {@code service.instance.id} unless the section sets one
   * @param version the build version, {@code service.version} unless the section sets one
   */
  OtlpSettings(OtlpMetricsConfig config, String instanceId, String version) {
    this.config = config;
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("service.name", "sf2loki");
    attributes.put("service.version", version);
    attributes.put("service.instance.id", instanceId);
    attributes.putAll(config.resourceAttributes());
    this.resource = Map.copyOf(attributes);
  }

  @Override
  public String get(String key) {
    return null; // every setting below; Micrometer's defaults for the rest
  }

  @Override
  public boolean enabled() {
    return config.enabled();
  }

  @Override
  public String url() {
    return config.url().toString();
  }

  @Override
  public Duration step() {
    return config.step();
  }

  @Override
  public Map<String, String> headers() {
    return config.headers();
  }

  @Override
  public Map<String, String> resourceAttributes() {
    return resource;
  }

  @Override
  public AggregationTemporality aggregationTemporality() {
    return AggregationTemporality.CUMULATIVE; // as Prometheus scrapes them
  }

  @Override
  public HistogramFlavor histogramFlavor() {
    return HistogramFlavor.EXPLICIT_BUCKET_HISTOGRAM;
  }

  @Override
  public CompressionMode compressionMode() {
    return CompressionMode.GZIP;
  }

  @Override
  public TimeUnit baseTimeUnit() {
    return TimeUnit.SECONDS; // as /metrics: durations in seconds
  }
}
