package io.sf2loki.cli.backfill;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.Durations;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.EngineStatus;
import io.sf2loki.model.StreamLabels;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the backfill's engine to its end: a finite run of the bounded source through the daemon's
 * pipeline and Loki sink, every entry labelled {@code backfill="true"}. It ends when every source
 * finished (exit 0), on a failure the engine gave up on (exit 1), when Loki pushes have failed for
 * {@code service.unready_after_sink_failing} (the bound at which the daemon turns unready; exit 1),
 * or on SIGINT/SIGTERM (drained and committed, exit 1). Whatever the end, the commits made stay in
 * the backfill's document, so running the same command again resumes.
 */
final class BackfillRun {

  /** How often the sink-failure bound is checked. */
  private static final Duration WATCH = Duration.ofMillis(250);

  private final Sf2LokiConfig config;
  private final Clock clock;
  private final Map<String, String> variables;
  private final PrintWriter out;

  BackfillRun(Sf2LokiConfig config, Clock clock, Map<String, String> variables, PrintWriter out) {
    this.config = config;
    this.clock = clock;
    this.variables = variables;
    this.out = out;
  }

  /**
   * Runs and prints the summary.
   *
   * @param request the run's source and window
   * @param prior the window's progress before the run, which the summary tells a resumed or already
   *     complete window by
   * @return 0 when done, whether this run read anything or earlier runs had read it all
   * @throws BackfillFailedException when the run did not finish, saying what to do
   */
  int run(BackfillRequest request, PriorProgress prior) throws InterruptedException {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    NamedThreadFactory threads = new NamedThreadFactory("sf2loki-backfill");
    EngineEnvironment environment =
        new EngineEnvironment(clock, Ticker.SYSTEM, new Random(), threads, registry);
    StopTrigger stop = new StopTrigger();
    AtomicReference<String> abort = new AtomicReference<>();
    CountDownLatch ended = new CountDownLatch(1);
    Thread hook =
        threads.newThread(
            () -> {
              abort.compareAndSet(null, "interrupted by a signal");
              stop.requestStop();
              await(ended, config.service().shutdownGrace().plusSeconds(10));
            });
    long started = Ticker.SYSTEM.nanoTime();
    EngineOutcome outcome;
    ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(threads);
    Runtime.getRuntime().addShutdownHook(hook);
    try (Engine engine =
        ConfiguredEngine.create(
            config, environment, variables, Map.of(StreamLabels.BACKFILL, "true"))) {
      watch.scheduleWithFixedDelay(
          () ->
              sinkFailingTooLong(engine.status())
                  .ifPresent(reason -> abortWith(abort, stop, reason)),
          WATCH.toMillis(),
          WATCH.toMillis(),
          TimeUnit.MILLISECONDS);
      outcome = engine.run(stop);
    } finally {
      watch.shutdownNow();
      ended.countDown();
      removeHook(hook);
    }
    Duration elapsed = Duration.ofNanos(Ticker.SYSTEM.nanoTime() - started);
    boolean finished = outcome instanceof EngineOutcome.Finished;
    out.println(new RunSummary(registry, elapsed, finished, request, prior).render());
    if (finished) {
      return 0;
    }
    String resume =
        "; the pushed part is committed in "
            + config.store().location()
            + ": run the same command again to resume";
    if (outcome instanceof EngineOutcome.Failed failed) {
      throw new BackfillFailedException("backfill failed: " + failed.describe() + resume);
    }
    throw new BackfillFailedException(
        "backfill aborted: " + Optional.ofNullable(abort.get()).orElse("stopped") + resume);
  }

  private static void abortWith(AtomicReference<String> abort, StopTrigger stop, String reason) {
    if (abort.compareAndSet(null, reason)) {
      stop.requestStop();
    }
  }

  /** The reason to give up, once Loki pushes have failed for the configured bound. */
  private Optional<String> sinkFailingTooLong(EngineStatus status) {
    Duration bound = config.service().unreadyAfterSinkFailing();
    if (bound.isZero() || !(status instanceof EngineStatus.Leading leading)) {
      return Optional.empty();
    }
    return leading
        .sinkFailingSince()
        .filter(since -> !Duration.between(since, Instant.now(clock)).minus(bound).isNegative())
        .map(
            since ->
                "Loki pushes have failed since "
                    + since
                    + " (service.unready_after_sink_failing = "
                    + Durations.format(bound)
                    + "); fix Loki (see sf2loki_loki_responses and the WARN lines above)");
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook is running and waits for this run to end
    }
  }

  private static void await(CountDownLatch latch, Duration timeout) {
    try {
      latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
