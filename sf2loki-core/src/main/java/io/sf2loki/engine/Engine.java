package io.sf2loki.engine;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.BuildInfo;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.pipeline.Pipeline;
import io.sf2loki.pipeline.PipelineEnvironment;
import io.sf2loki.pipeline.PipelineMetrics;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Term;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * sf2loki as a library: a coordinator elects this process, and each term runs a fresh pipeline of
 * the sources into the sink, committing to the store fenced by the term.
 *
 * <p>{@link #run} blocks the calling thread until the stop signal fires (exit 0), the sources all
 * finish (a finite run, exit 0) or a real failure happens (exit 1). Losing leadership — a lost
 * lease or a fenced commit — only returns the engine to standby and it campaigns again (invariant
 * 3). No static state: several engines may run in one JVM.
 */
public final class Engine implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  private final Builder cfg;
  private final EngineMetrics metrics;
  private final PipelineMetrics pipelineMetrics;
  private final AtomicReference<EngineStatus> status =
      new AtomicReference<>(new EngineStatus.Starting());
  private final AtomicReference<EngineOutcome> outcome = new AtomicReference<>();
  private final AtomicReference<StopTrigger> campaign = new AtomicReference<>();
  private final AtomicBoolean started = new AtomicBoolean();

  private Engine(Builder builder) {
    this.cfg = builder;
    this.metrics = new EngineMetrics(builder.registry, BuildInfo.version());
    this.pipelineMetrics = new PipelineMetrics(builder.registry);
  }

  /**
   * A builder over the four collaborators every engine needs.
   *
   * @param coordinators creates the coordinator of each campaign: a run that resigned after a
   *     fenced commit campaigns again with a fresh one (a coordinator runs once)
   */
  public static Builder builder(
      Supplier<Coordinator> coordinators, CheckpointStore store, Sink sink, TermSources sources) {
    return new Builder(coordinators, store, sink, sources);
  }

  /** What the engine is doing now (for readiness probes). */
  public EngineStatus status() {
    EngineStatus current = status.get();
    if (current instanceof EngineStatus.Leading leading) {
      return new EngineStatus.Leading(leading.epoch(), pipelineMetrics.sinkFailingSince());
    }
    return current;
  }

  /**
   * Runs until {@code stop} fires, the sources finish, or a failure.
   *
   * @throws InterruptedException when the calling thread is interrupted
   * @throws IllegalStateException when called twice
   */
  public EngineOutcome run(StopSignal stop) throws InterruptedException {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("an engine runs once");
    }
    TermRunner listener =
        new TermRunner(
            cfg.store,
            this::pipeline,
            cfg.shutdownGrace.plus(Duration.ofSeconds(5)),
            metrics,
            new TermRunner.Control() {
              @Override
              public void resign() {
                StopTrigger current = campaign.get();
                if (current != null) {
                  current.requestStop();
                }
              }

              @Override
              public void finish(EngineOutcome result) {
                outcome.compareAndSet(null, result);
                resign();
              }

              @Override
              public void status(EngineStatus next) {
                status.set(next);
              }

              @Override
              public boolean ending() {
                return outcome.get() != null || stop.isStopRequested();
              }
            });
    Thread relay = relayStop(stop);
    try {
      while (outcome.get() == null && !stop.isStopRequested()) {
        StopTrigger round = new StopTrigger();
        campaign.set(round);
        if (stop.isStopRequested()) {
          break;
        }
        status.set(new EngineStatus.Standby());
        try (Coordinator coordinator = cfg.coordinators.get()) {
          coordinator.run(listener, round);
        }
        if (outcome.get() == null && !stop.isStopRequested()) {
          LOG.info("resigned after losing leadership; campaigning again in {}", cfg.resignBackoff);
          stop.awaitStop(cfg.resignBackoff);
        }
      }
    } finally {
      status.set(new EngineStatus.Stopping());
      relay.interrupt();
    }
    EngineOutcome result = outcome.get();
    return result == null ? new EngineOutcome.Stopped() : result;
  }

  private Thread relayStop(StopSignal stop) {
    Thread relay =
        new Thread(
            () -> {
              try {
                while (!stop.awaitStop(Duration.ofMinutes(10))) {
                  // keep waiting
                }
                StopTrigger current = campaign.get();
                if (current != null) {
                  current.requestStop();
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the engine ended first
              }
            },
            "sf2loki-engine-stop");
    relay.setDaemon(true);
    relay.start();
    return relay;
  }

  private Pipeline pipeline(Term term) {
    return Pipeline.builder(
            cfg.sources.create(),
            cfg.sink,
            cfg.store,
            term,
            new PipelineEnvironment(cfg.clock, cfg.ticker, cfg.random))
        .lanes(cfg.lanes)
        .shutdownGrace(cfg.shutdownGrace)
        .staticLabels(cfg.staticLabels)
        .metrics(pipelineMetrics)
        .build();
  }

  /** Closes the sink and, last, the store (which releases its lock). */
  @Override
  public void close() {
    closeQuietly("sink", cfg.sink);
    closeQuietly("checkpoint store", cfg.store);
  }

  private static void closeQuietly(String what, Object resource) {
    if (resource instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.warn("closing the {} failed: {}", what, e.toString());
      }
    }
  }

  /** Assembles an {@link Engine}; every setting has a production default. */
  public static final class Builder {
    private final Supplier<Coordinator> coordinators;
    private final CheckpointStore store;
    private final Sink sink;
    private final TermSources sources;
    private LaneConfig lanes = LaneConfig.defaults();
    private java.util.random.RandomGenerator random = java.util.random.RandomGenerator.getDefault();
    private Duration shutdownGrace = Duration.ofSeconds(25);
    private Duration resignBackoff = Duration.ofSeconds(1);
    private Map<String, String> staticLabels = Map.of();
    private MeterRegistry registry = new SimpleMeterRegistry();
    private Clock clock = Clock.systemUTC();
    private Ticker ticker = Ticker.SYSTEM;

    private Builder(
        Supplier<Coordinator> coordinators, CheckpointStore store, Sink sink, TermSources sources) {
      this.coordinators = Objects.requireNonNull(coordinators, "coordinators");
      this.store = Objects.requireNonNull(store, "store");
      this.sink = Objects.requireNonNull(sink, "sink");
      this.sources = Objects.requireNonNull(sources, "sources");
    }

    /** Batch, queue and retry bounds of the lanes ({@code sink.loki.batch}, {@code retry}). */
    public Builder lanes(LaneConfig lanes) {
      this.lanes = Objects.requireNonNull(lanes, "lanes");
      return this;
    }

    /** Jitter of the lanes' retry backoff. */
    public Builder random(java.util.random.RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /** Drain budget of a stop or a lost term. */
    public Builder shutdownGrace(Duration grace) {
      this.shutdownGrace = Objects.requireNonNull(grace, "grace");
      return this;
    }

    /**
     * Pause between a resigned term and the next campaign (default 1s), so a failing store is not
     * hammered.
     */
    public Builder resignBackoff(Duration pause) {
      this.resignBackoff = Objects.requireNonNull(pause, "pause");
      return this;
    }

    /** Labels on every entry: job, service_name, environment, operator labels. */
    public Builder staticLabels(Map<String, String> labels) {
      this.staticLabels = Map.copyOf(labels);
      return this;
    }

    /** Where engine, pipeline and sink metrics go. */
    public Builder metrics(MeterRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /** Wall clock. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Monotonic clock. */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /** Builds the engine. */
    public Engine build() {
      return new Engine(this);
    }
  }
}
