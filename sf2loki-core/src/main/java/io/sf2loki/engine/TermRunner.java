package io.sf2loki.engine;

import io.sf2loki.pipeline.Pipeline;
import io.sf2loki.pipeline.PipelineOutcome;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.StoreConflictException;
import io.sf2loki.spi.Term;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one pipeline per leadership term. {@code onAcquire} stamps the term's epoch into the store
 * and starts the run on its own thread; {@code onLose} stops it and waits for the drain, so the
 * final commits happen while the lease is still held (invariant 3). A fenced commit resigns the
 * term: the process returns to standby, it does not exit. Any other failure, at acquire or of the
 * run, is handed to the engine ({@link Control#failed}), which gives the term up and decides.
 */
final class TermRunner implements LeadershipListener {

  private static final Logger LOG = LoggerFactory.getLogger(TermRunner.class);

  /** What the engine must do after a term ended by itself. */
  interface Control {
    /** Give up the current term and campaign again (fenced). */
    void resign();

    /** End the engine with this outcome (finished). */
    void finish(EngineOutcome outcome);

    /** The term failed: give it up; the engine classifies the failure and decides. */
    void failed(Throwable cause);

    /** The engine's status changed. */
    void status(EngineStatus status);

    /** True once the engine itself is ending (stop requested, finished or failed). */
    boolean ending();
  }

  private final CheckpointStore store;
  private final Function<Term, Pipeline> pipelines;
  private final Duration drainTimeout;
  private final EngineMetrics metrics;
  private final ThreadFactory threads;
  private final Control control;

  private Thread running;
  private StopTrigger termStop;

  TermRunner(
      CheckpointStore store,
      Function<Term, Pipeline> pipelines,
      Duration drainTimeout,
      EngineMetrics metrics,
      ThreadFactory threads,
      Control control) {
    this.store = store;
    this.pipelines = pipelines;
    this.drainTimeout = drainTimeout;
    this.metrics = metrics;
    this.threads = threads;
    this.control = control;
  }

  @Override
  public void onAcquire(Term term) {
    LOG.info("acquired leadership as {}", term.describe());
    try {
      recordEpoch(term);
    } catch (FencedException | StoreConflictException e) {
      LOG.warn(
          "the store refused epoch {}: another replica recorded it or a later one first (a lease"
              + " deleted or rewritten while being taken); standing by: {}",
          term.epoch(),
          e.getMessage());
      metrics.claimRefused();
      control.resign();
      return;
    } catch (RuntimeException e) {
      control.failed(e); // locked, unavailable, access denied, corrupt: the engine decides
      return;
    }
    Pipeline pipeline;
    try {
      pipeline = pipelines.apply(term);
    } catch (RuntimeException e) {
      control.failed(e); // the term's sources could not be made
      return;
    }
    // Counted only now: a term whose claim was refused never led, so dashboards must not show it.
    metrics.acquired(term.epoch());
    control.status(new EngineStatus.Leading(term.epoch(), java.util.Optional.empty()));
    LOG.info("sf2loki ready — streaming to Loki (epoch {})", term.epoch());
    StopTrigger stop = new StopTrigger();
    termStop = stop;
    running = threads.newThread(() -> runTerm(pipeline, stop, term));
    running.setName("sf2loki-term-" + term.epoch());
    running.start();
  }

  /**
   * Records the epoch before any data moves, so that a standby taking a lost or deleted lease later
   * goes above it (invariant 2). A store that can claim does so strictly: of two replicas granted
   * one epoch by a lease rewritten under them, only the first to record it runs its term.
   */
  private void recordEpoch(Term term) {
    if (store instanceof EpochClaim claims) {
      claims.claimEpoch(term);
    } else {
      store.commit(Map.of(), term);
    }
  }

  private void runTerm(Pipeline pipeline, StopTrigger stop, Term term) {
    PipelineOutcome outcome;
    try {
      outcome = pipeline.run(stop);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (outcome instanceof PipelineOutcome.LostLeadership lost) {
      LOG.warn("leadership lost — standing by (epoch {}): {}", term.epoch(), lost.reason());
      metrics.fencedCommit();
      control.resign();
    } else if (outcome instanceof PipelineOutcome.Completed) {
      LOG.info("every source finished with nothing left to do; stopping (finite run)");
      control.finish(new EngineOutcome.Finished());
    } else if (outcome instanceof PipelineOutcome.Failed failed) {
      control.failed(failed.cause());
    } else if (outcome instanceof PipelineOutcome.Stopped stopped
        && stopped.abandonedBatches() > 0) {
      LOG.warn(
          "{} batch(es) abandoned undelivered at the end of epoch {}; they will be re-read",
          stopped.abandonedBatches(),
          term.epoch());
    }
  }

  @Override
  public void onLose(Term term) {
    Thread thread = running;
    running = null;
    if (thread != null) {
      metrics.lost();
      termStop.requestStop();
      try {
        thread.join(drainTimeout.toMillis());
        if (thread.isAlive()) {
          LOG.warn("term {} did not drain within {}; interrupting it", term.epoch(), drainTimeout);
          thread.interrupt();
          thread.join(drainTimeout.toMillis());
        }
      } catch (InterruptedException e) {
        thread.interrupt();
        Thread.currentThread().interrupt();
      }
    }
    store.reset();
    if (control.ending()) {
      control.status(new EngineStatus.Stopping());
      LOG.info("leadership of epoch {} ended; shutting down", term.epoch());
      return;
    }
    control.status(new EngineStatus.Standby());
    LOG.info("leadership of epoch {} ended — standing by", term.epoch());
  }
}
