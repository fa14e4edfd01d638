package io.sf2loki.daemon.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.ipc.http.HttpUrlConnectionSender;
import io.micrometer.registry.otlp.OtlpHttpMetricsSender;
import io.micrometer.registry.otlp.OtlpMeterRegistry;
import io.sf2loki.config.Durations;
import io.sf2loki.config.OtlpMetricsConfig;
import io.sf2loki.config.Urls;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry the daemon's components register on: the scrape registry alone, or, with {@code
 * service.metrics.otlp.enabled}, a composite of it and Micrometer's OTLP registry, which pushes
 * every step from its own thread. Closing pushes once more and stops the push.
 */
public final class MetricsPush implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MetricsPush.class);

  private final MeterRegistry registry;
  private final Optional<OtlpMeterRegistry> otlp;

  private MetricsPush(MeterRegistry registry, Optional<OtlpMeterRegistry> otlp) {
    this.registry = registry;
    this.otlp = otlp;
  }

  /**
   * Starts the push {@code config} describes, next to {@code scrape}.
   *
   * @param config {@code service.metrics.otlp}
   * @param scrape the registry {@code /metrics} serves
   * @param instanceId this replica's id, the default {@code service.instance.id}
   * @param version the build version
   * @param clock stamps the last successful push
   * @param threads makes the push thread
   */
  public static MetricsPush start(
      OtlpMetricsConfig config,
      MeterRegistry scrape,
      String instanceId,
      String version,
      Clock clock,
      ThreadFactory threads) {
    if (!config.enabled()) {
      return new MetricsPush(scrape, Optional.empty());
    }
    CompositeMeterRegistry composite = new CompositeMeterRegistry();
    composite.add(scrape);
    String target = Urls.redact(config.url());
    PushOutcomes sender =
        new PushOutcomes(
            new OtlpHttpMetricsSender(
                new HttpUrlConnectionSender(config.timeout(), config.timeout())),
            target,
            clock,
            composite);
    OtlpMeterRegistry otlp =
        OtlpMeterRegistry.builder(new OtlpSettings(config, instanceId, version))
            .metricsSender(sender)
            .threadFactory(threads)
            .build();
    composite.add(otlp);
    LOG.info("pushing metrics over OTLP to {} every {}", target, Durations.format(config.step()));
    return new MetricsPush(composite, Optional.of(otlp));
  }

  /** Where meters are registered: both registries when pushing. */
  public MeterRegistry registry() {
    return registry;
  }

  /** Pushes what is there once more (a failure is counted and logged), then stops pushing. */
  @Override
  public void close() {
    otlp.ifPresent(OtlpMeterRegistry::close);
  }
}
