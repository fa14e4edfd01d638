package io.sf2loki.engine;

import io.sf2loki.config.BuildInfo;
import io.sf2loki.config.Durations;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.pipeline.LaneStall;
import io.sf2loki.pipeline.Pipeline;
import io.sf2loki.pipeline.PipelineMetrics;
import io.sf2loki.pipeline.PipelineSettings;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.OrgSession;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Term;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * finish (a finite run, exit 0) or a permanent failure has used its attempts (exit 1). Losing
 * leadership — a lost lease or a fenced commit — only returns the engine to standby and it
 * campaigns again (invariant 3). Any other failure of a campaign or a term is classified ({@link
 * FailureClassifier}): the term is given up (the lease released), the engine backs off ({@link
 * FailurePolicy}) and campaigns again, and a permanent failure ends it at its last attempt. No
 * static state: several engines may run in one JVM.
 *
 * <p>An engine is its {@link EngineSettings} (an immutable value), its collaborators and the {@link
 * EngineEnvironment} its composition root gives it; {@link #builder} is the way to make one.
 */
public final class Engine implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  private final EngineSettings settings;
  private final Supplier<Coordinator> coordinators;
  private final CheckpointStore store;
  private final Sink sink;
  private final TermSources sources;
  private final EngineEnvironment environment;
  private final EngineMetrics metrics;
  private final PipelineMetrics pipelineMetrics;
  private final Heartbeat heartbeat;
  private final AtomicReference<EngineStatus> status =
      new AtomicReference<>(new EngineStatus.Starting());
  private final AtomicReference<EngineOutcome> outcome = new AtomicReference<>();
  private final AtomicReference<StopTrigger> campaign = new AtomicReference<>();
  private final AtomicReference<Throwable> termFailure = new AtomicReference<>();
  private final AtomicBoolean started = new AtomicBoolean();
  private final FailureResponse failures;
  private final OrgLogins logins;

  private Engine(Builder builder) {
    this.settings = builder.settings;
    this.coordinators = builder.coordinators;
    this.store = builder.store;
    this.sink = builder.sink;
    this.sources = builder.sources;
    this.environment = builder.environment;
    this.metrics = new EngineMetrics(environment.metrics(), BuildInfo.version());
    this.pipelineMetrics = new PipelineMetrics(environment.metrics());
    this.heartbeat = new Heartbeat(environment.ticker());
    this.failures =
        new FailureResponse(
            new FailureClassifier(store.location()),
            new FailureStreak(settings.failures(), environment.random()),
            metrics,
            environment.ticker());
    this.logins = new OrgLogins(builder.sessions, environment.threads(), heartbeat);
  }

  /**
   * A builder over the collaborators every engine needs and the environment its composition root
   * gives it.
   *
   * @param coordinators creates the coordinator of each campaign: a run that resigned after a
   *     fenced commit campaigns again with a fresh one (a coordinator runs once)
   */
  public static Builder builder(
      Supplier<Coordinator> coordinators,
      CheckpointStore store,
      Sink sink,
      TermSources sources,
      EngineEnvironment environment) {
    return new Builder(coordinators, store, sink, sources, environment);
  }

  /** The settings this engine runs with. */
  public EngineSettings settings() {
    return settings;
  }

  /** What the engine is doing now (for readiness probes). */
  public EngineStatus status() {
    EngineStatus current = status.get();
    if (current instanceof EngineStatus.Leading leading) {
      return new EngineStatus.Leading(
          leading.epoch(),
          pipelineMetrics.sinkFailingSince(),
          pipelineMetrics.longestStall().filter(this::pastStallBound),
          pipelineMetrics.egress().pausedUntil());
    }
    return current;
  }

  private boolean pastStallBound(LaneStall stall) {
    Duration bound = settings.unreadyAfterStall();
    return !bound.isZero() && stall.duration().compareTo(bound) >= 0;
  }

  /**
   * How long the engine's supervising thread (its campaign loop, the coordinator running on it, the
   * hand-over of each term) has gone without a heartbeat, once that is at least {@link
   * EngineSettings#livenessTimeout()}: the thread is stuck, not merely waiting, and a supervisor
   * should restart the process (for liveness probes). Empty while it beats, before {@link #run} and
   * when the timeout is zero.
   */
  public Optional<Duration> staleHeartbeat() {
    return started.get() ? heartbeat.staleAfter(settings.livenessTimeout()) : Optional.empty();
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
            store,
            this::pipeline,
            settings.pipeline().shutdownGrace().plus(Duration.ofSeconds(5)),
            metrics,
            environment.threads(),
            heartbeat,
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
              public void failed(Throwable cause) {
                termFailure.compareAndSet(null, cause);
                resign();
              }

              @Override
              public void status(EngineStatus next) {
                status.set(next);
                failures.observe(next);
              }

              @Override
              public boolean ending() {
                return outcome.get() != null || stop.isStopRequested();
              }
            });
    Thread relay = relayStop(stop);
    StopSignal beating = heartbeat.beating(stop); // the relay waits on the bare signal: no beats
    try {
      while (outcome.get() == null && !stop.isStopRequested()) {
        heartbeat.beat();
        StopTrigger round = new StopTrigger();
        campaign.set(round);
        if (stop.isStopRequested()) {
          break;
        }
        // Every replica logs in before it campaigns: a standby with bad credentials shows it too.
        Throwable failure = logins.pending() ? logins.attempt(heartbeat.beating(round)) : null;
        if (failure == null && !stop.isStopRequested()) {
          status.set(new EngineStatus.Standby());
          failure = campaign(listener, heartbeat.beating(round));
        }
        if (outcome.get() != null || stop.isStopRequested()) {
          break;
        }
        Duration pause = failure == null ? resigned() : backOff(failure);
        if (pause == null) {
          break; // a permanent failure used its attempts
        }
        beating.awaitStop(pause); // a backoff is no hung engine: it beats while it waits
      }
    } finally {
      status.set(new EngineStatus.Stopping());
      relay.interrupt();
    }
    EngineOutcome result = outcome.get();
    return result == null ? new EngineOutcome.Stopped() : result;
  }

  /**
   * One campaign with a fresh coordinator, until the round ends.
   *
   * @param round the round's stop signal, beating while the coordinator waits on it
   * @return why it ended when that was a failure: the term's, else the coordinator's
   */
  private Throwable campaign(TermRunner listener, StopSignal round) throws InterruptedException {
    Throwable thrown = null;
    try (Coordinator coordinator = coordinators.get()) {
      coordinator.run(listener, round);
    } catch (RuntimeException | Error e) {
      // A failed campaign (CoordinatorException), or a coordinator that broke: it released what it
      // held (or its lease expires), and the term ended with it. The engine classifies it.
      thrown = e;
    }
    Throwable failed = termFailure.getAndSet(null);
    return failed != null ? failed : thrown;
  }

  private Duration resigned() {
    Duration pause = settings.resignBackoff();
    LOG.info("resigned after losing leadership; campaigning again in {}", Durations.format(pause));
    return pause;
  }

  /**
   * The wait before the next campaign after {@code failure} (the status says why), or null when a
   * permanent failure used its attempts and the engine ends.
   */
  private Duration backOff(Throwable failure) {
    FailureResponse.Reaction reaction = failures.to(failure);
    if (reaction instanceof FailureResponse.End end) {
      outcome.compareAndSet(null, end.outcome());
      return null;
    }
    EngineStatus.BackingOff waiting = ((FailureResponse.Wait) reaction).status();
    status.set(waiting);
    return waiting.pause();
  }

  private Thread relayStop(StopSignal stop) {
    Thread relay =
        environment
            .threads()
            .newThread(
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
                });
    relay.setName("sf2loki-engine-stop");
    relay.start();
    return relay;
  }

  private Pipeline pipeline(Term term) {
    return Pipeline.builder(sources.create(), sink, store, term, environment.pipeline())
        .settings(settings.pipeline())
        .metrics(pipelineMetrics)
        .build();
  }

  /** Closes the org sessions, the sink and, last, the store (which releases its lock). */
  @Override
  public void close() {
    logins.close();
    closeQuietly("sink", sink);
    closeQuietly("checkpoint store", store);
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

  /**
   * Makes an {@link Engine}: {@link #settings} (or the shortcuts that derive them) over {@link
   * EngineSettings#defaults()}. Not kept by the engine it builds.
   */
  public static final class Builder {
    private final Supplier<Coordinator> coordinators;
    private final CheckpointStore store;
    private final Sink sink;
    private final TermSources sources;
    private final EngineEnvironment environment;
    private EngineSettings settings = EngineSettings.defaults();
    private List<OrgSession> sessions = List.of();

    private Builder(
        Supplier<Coordinator> coordinators,
        CheckpointStore store,
        Sink sink,
        TermSources sources,
        EngineEnvironment environment) {
      this.coordinators = Objects.requireNonNull(coordinators, "coordinators");
      this.store = Objects.requireNonNull(store, "store");
      this.sink = Objects.requireNonNull(sink, "sink");
      this.sources = Objects.requireNonNull(sources, "sources");
      this.environment = Objects.requireNonNull(environment, "environment");
    }

    /** All settings at once. */
    public Builder settings(EngineSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** The lanes' batch, queue and retry bounds ({@link PipelineSettings#withLanes}). */
    public Builder lanes(LaneConfig lanes) {
      return pipeline(settings.pipeline().withLanes(lanes));
    }

    /** Drain budget of a stop or a lost term ({@link PipelineSettings#withShutdownGrace}). */
    public Builder shutdownGrace(Duration grace) {
      return pipeline(settings.pipeline().withShutdownGrace(grace));
    }

    /** Labels on every entry ({@link PipelineSettings#withStaticLabels}). */
    public Builder staticLabels(Map<String, String> labels) {
      return pipeline(settings.pipeline().withStaticLabels(labels));
    }

    /** Pause between a resigned term and the next campaign ({@link EngineSettings}). */
    public Builder resignBackoff(Duration pause) {
      return settings(settings.withResignBackoff(pause));
    }

    /**
     * The org sessions every replica logs in before its first campaign (and closes with the
     * engine): until they have, the engine neither campaigns nor reports ready, and a failed login
     * is backed off and counted like a failed campaign. None by default.
     */
    public Builder orgSessions(List<OrgSession> orgSessions) {
      this.sessions = List.copyOf(orgSessions);
      return this;
    }

    private Builder pipeline(PipelineSettings pipeline) {
      return settings(settings.withPipeline(pipeline));
    }

    /** Builds the engine. */
    public Engine build() {
      return new Engine(this);
    }
  }
}
