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
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry the daemon's components register on: the scrape registry alone, or, with {@code
 * service.metrics.otlp.enabled}, a composite of it and Micrometer's OTLP registry, which pushes
 * every step from its own thread. Closing pushes once more, within what is left of the shutdown
 * grace, and stops the push.
 */
public final class MetricsPush {

  private static final Logger LOG = LoggerFactory.getLogger(MetricsPush.class);

  private final MeterRegistry registry;
  private final Optional<OtlpMeterRegistry> otlp;
  private final String target;
  private final ThreadFactory threads;

  private MetricsPush(
      MeterRegistry registry,
      Optional<OtlpMeterRegistry> otlp,
      String target,
      ThreadFactory threads) {
    this.registry = registry;
    this.otlp = otlp;
    this.target = target;
    this.threads = threads;
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
      return new MetricsPush(scrape, Optional.empty(), "", threads);
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
    return new MetricsPush(composite, Optional.of(otlp), target, threads);
  }

  /** Where meters are registered: both registries when pushing. */
  public MeterRegistry registry() {
    return registry;
  }

  /**
   * Stops pushing, after one more push of what is there (a failure is counted and logged) that may
   * take {@code budget} at most, a push under way included: the process must end within {@code
   * service.shutdown_grace}, and a receiver that accepts connections but never answers would hold a
   * push for the connect and read timeouts. A push still under way then is left to its thread (the
   * process is ending) with a WARN; with no budget left the final push is skipped with one.
   *
   * @param budget what is left of the shutdown grace
   */
  public void close(Duration budget) {
    if (otlp.isEmpty()) {
      return;
    }
    OtlpMeterRegistry push = otlp.get();
    if (budget.isNegative() || budget.isZero()) {
      push.stop();
      LOG.warn(
          "shutdown grace spent: skipping the final OTLP metrics push to {} (what changed since"
              + " the last push is not pushed)",
          target);
      return;
    }
    CompletableFuture<Void> closed =
        CompletableFuture.runAsync(push::close, body -> threads.newThread(body).start());
    try {
      closed.get(budget.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      LOG.warn(
          "the final OTLP metrics push to {} did not finish within the {} left of the shutdown"
              + " grace; not waiting for it",
          target,
          Durations.format(budget));
    } catch (ExecutionException e) {
      LOG.warn("the final OTLP metrics push to {} failed: {}", target, e.getCause().toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
