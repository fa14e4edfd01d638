package io.sf2loki.daemon;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sf2loki.config.BuildInfo;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.coordinate.internal.HolderIds;
import io.sf2loki.daemon.http.HealthServer;
import io.sf2loki.daemon.logging.MetricsSummary;
import io.sf2loki.daemon.logging.SummaryLoop;
import io.sf2loki.daemon.metrics.MetricsPush;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service: health server, engines (one, or one per org: {@link ShardEngines}), signals.
 * SIGTERM/SIGINT stop every engine, which drains and commits while still leading, releases its
 * lease and returns; the process then exits 0 (1 when an org had ended after a failure).
 */
final class DaemonService implements DaemonRunner {

  private static final Logger LOG = LoggerFactory.getLogger(DaemonService.class);

  private final Map<String, String> variables;

  /**
   * @param variables the process environment, handed to the components that read it
   */
  DaemonService(Map<String, String> variables) {
    this.variables = Map.copyOf(variables);
  }

  @Override
  public int run(Shards shards, boolean debug) throws IOException, InterruptedException {
    Sf2LokiConfig config = shards.first().config(); // the shared sections are every shard's
    LoggingSetup.apply(config.service(), debug);
    LOG.info(
        "sf2loki starting: version={} sink={} ({}) store={} ({}) coordinator={} sources={}{}",
        BuildInfo.version(),
        config.sinkType(),
        config.sink().target(),
        config.storeType(),
        shards
            .first()
            .org()
            .map(o -> o.legacyDocument().location() + ", -<org> per org")
            .orElse(config.store().location()),
        config.coordinatorType(),
        config.sources().keySet(),
        shards.multiOrg() ? " orgs=" + shards.orgNames() : "");
    shards.topologyWarnings().forEach(w -> LOG.warn("unsafe topology: {}", w));
    Clock clock = Clock.systemUTC();
    Ticker ticker = Ticker.SYSTEM;
    PrometheusMeterRegistry registry = PrometheusRegistries.create(BuildInfo.version());
    MetricsPush push = pushFor(config, registry, clock, variables);
    StopTrigger stop = new StopTrigger();
    StopTrigger summaryStop = new StopTrigger();
    CountDownLatch finished = new CountDownLatch(1);
    AtomicReference<OptionalLong> stopRequestedAt = new AtomicReference<>(OptionalLong.empty());
    int[] exitCode = {1}; // stays 1 if the drain hangs past the grace and the hook halts
    Thread hook =
        new Thread(
            () -> {
              LOG.info("stop requested; draining");
              stopRequestedAt.set(OptionalLong.of(ticker.nanoTime()));
              stop.requestStop();
              awaitQuietly(finished, config.service().shutdownGrace().toSeconds() + 10);
              // A plain return would make the JVM exit 143 after SIGTERM; the contract says 0
              // after a graceful stop, so end the process here with the engine's own code.
              Runtime.getRuntime().halt(exitCode[0]);
            },
            "sf2loki-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    EngineEnvironment environment =
        new EngineEnvironment(
            clock, ticker, new Random(), new NamedThreadFactory("sf2loki"), push.registry());
    try (ShardEngines engines = ShardEngines.create(shards, environment, variables);
        HealthServer health =
            HealthServer.start(
                config.service().httpHost(),
                config.service().httpPort(),
                engines.liveness(),
                engines.readiness(),
                registry::scrape,
                push.registry())) {
      LOG.info("health endpoints on {}:{}", config.service().httpHost(), health.port());
      startSummary(config.service().logSummaryInterval(), registry, environment, summaryStop);
      exitCode[0] = exitCode(engines.run(stop));
      return exitCode[0];
    } finally {
      summaryStop.requestStop();
      push.close(graceLeft(config.service().shutdownGrace(), stopRequestedAt.get(), ticker));
      finished.countDown();
      if (!stop.isStopRequested()) {
        Runtime.getRuntime().removeShutdownHook(hook);
      }
    }
  }

  /**
   * The OTLP push of {@code service.metrics.otlp}, or none, next to {@code registry}; the replica
   * id is {@code $HOSTNAME} (the pod name), else hostname-pid, as k8s_lease's default identity.
   */
  static MetricsPush pushFor(
      Sf2LokiConfig config,
      PrometheusMeterRegistry registry,
      Clock clock,
      Map<String, String> variables) {
    return MetricsPush.start(
        config.service().metricsOtlp(),
        registry,
        HolderIds.podName(variables),
        BuildInfo.version(),
        clock,
        new NamedThreadFactory("sf2loki-otlp"));
  }

  /**
   * What is left of {@code grace} for the last steps of a stop (the final OTLP push): measured from
   * the stop request (SIGTERM), so that they end within the grace however long the drain took, or
   * all of it when the run ended by itself.
   */
  static Duration graceLeft(Duration grace, OptionalLong stopRequestedAt, Ticker ticker) {
    long now = ticker.nanoTime();
    return grace.minusNanos(now - stopRequestedAt.orElse(now));
  }

  /** The periodic summary line ({@code service.log_summary_interval}; 0 disables it). */
  private static void startSummary(
      Duration interval,
      PrometheusMeterRegistry registry,
      EngineEnvironment environment,
      StopTrigger stop) {
    if (interval.isZero()) {
      return;
    }
    Thread loop =
        environment
            .threads()
            .newThread(
                new SummaryLoop(
                    new MetricsSummary(registry), interval, environment.ticker(), stop));
    loop.setName("sf2loki-summary");
    loop.start();
  }

  /** 1 when any shard ended after a failure (each is logged), else 0. */
  static int exitCode(List<EngineOutcome> outcomes) {
    if (outcomes.size() == 1) {
      return exitCode(outcomes.get(0));
    }
    boolean failed = outcomes.stream().anyMatch(EngineOutcome.Failed.class::isInstance);
    LOG.info(
        failed
            ? "sf2loki stopped: every org has ended, at least one after a failure (logged above)"
            : "sf2loki stopped");
    return failed ? 1 : 0;
  }

  static int exitCode(EngineOutcome outcome) {
    if (outcome instanceof EngineOutcome.Failed failed) {
      LOG.error("sf2loki stopped after a failure: {}", failed.describe());
      return 1;
    }
    LOG.info(
        outcome instanceof EngineOutcome.Finished
            ? "sf2loki finished: every source is done (finite run)"
            : "sf2loki stopped");
    return 0;
  }

  private static void awaitQuietly(CountDownLatch latch, long seconds) {
    try {
      latch.await(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
