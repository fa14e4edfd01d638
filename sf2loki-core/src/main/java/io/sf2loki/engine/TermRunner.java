package io.sf2loki.engine;

import io.sf2loki.config.Durations;
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
 * Runs one pipeline per leadership term. {@code onAcquire} starts the term on its own thread, which
 * stamps the term's epoch into the store and runs the pipeline; {@code onLose} stops it and waits
 * for the drain, so the final commits happen while the lease is still held (invariant 3). A fenced
 * commit resigns the term: the process returns to standby, it does not exit. Any other failure, of
 * the claim or of the run, is handed to the engine ({@link Control#failed}), which gives the term
 * up and decides.
 *
 * <p>The epoch claim runs on the term's thread, never on the coordinator's: a slow or hung store
 * then cannot delay a lease renewal, and a claim still running when the lease is lost is bounded by
 * the store's own deadline and the drain timeout.
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
  private final Heartbeat heartbeat;
  private final Control control;

  private Thread running;
  private StopTrigger termStop;
  private boolean leading; // guarded by this

  TermRunner(
      CheckpointStore store,
      Function<Term, Pipeline> pipelines,
      Duration drainTimeout,
      EngineMetrics metrics,
      ThreadFactory threads,
      Heartbeat heartbeat,
      Control control) {
    this.store = store;
    this.pipelines = pipelines;
    this.drainTimeout = drainTimeout;
    this.metrics = metrics;
    this.threads = threads;
    this.heartbeat = heartbeat;
    this.control = control;
  }

  @Override
  public void onAcquire(Term term) {
    heartbeat.beat();
    LOG.info("acquired leadership as {}", term.describe());
    StopTrigger stop = new StopTrigger();
    termStop = stop;
    running = threads.newThread(() -> lead(term, stop));
    running.setName("sf2loki-term-" + term.epoch());
    running.start();
  }

  /** Claims the term's epoch, then runs its pipeline; on the term's thread. */
  private void lead(Term term, StopTrigger stop) {
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
    } catch (Throwable e) {
      // Locked, unavailable, timed out, access denied, corrupt, or unexpected (never die
      // silently): the engine classifies it and decides.
      control.failed(e);
      return;
    }
    if (!startLeading(term, stop)) {
      return; // the term ended while its epoch was being claimed
    }
    Pipeline pipeline;
    try {
      pipeline = pipelines.apply(term);
    } catch (Throwable e) {
      // The term's sources could not be made: the engine gives the term up (the coordinator
      // releases the lease) and decides.
      control.failed(e);
      return;
    }
    // Only now is it true: logged in (before the campaign), epoch claimed, sources made.
    LOG.info("sf2loki ready — streaming to Loki (epoch {})", term.epoch());
    runTerm(pipeline, stop, term);
  }

  /** The claim succeeded: the term leads, unless it was stopped meanwhile. */
  private synchronized boolean startLeading(Term term, StopTrigger stop) {
    if (stop.isStopRequested()) {
      return false;
    }
    leading = true;
    // Counted only now: a term whose claim was refused never led, so dashboards must not show it.
    metrics.acquired(term.epoch());
    control.status(new EngineStatus.Leading(term.epoch(), java.util.Optional.empty()));
    return true;
  }

  /** Stops the current term; true when it had started leading. */
  private synchronized boolean stopTerm() {
    termStop.requestStop();
    boolean led = leading;
    leading = false;
    return led;
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
    } catch (Throwable e) {
      // Never die silently: the engine would go on leading a term that moves nothing.
      outcome = new PipelineOutcome.Failed(e);
    }
    if (outcome instanceof PipelineOutcome.LostLeadership lost) {
      LOG.warn("leadership lost — standing by (epoch {}): {}", term.epoch(), lost.reason());
      control.status(new EngineStatus.Fenced(term.epoch(), lost.reason()));
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
      boolean led = stopTerm();
      if (led && !term.isCurrent()) { // lost or fenced: nothing commits during this drain
        control.status(
            new EngineStatus.Fenced(term.epoch(), term.lossReason().orElse("the lease was lost")));
      }
      if (led) {
        metrics.lost();
      }
      try {
        heartbeat.join(thread, drainTimeout); // a long drain is no hung engine
        if (thread.isAlive()) {
          LOG.warn(
              "term {} did not drain within {}; interrupting it",
              term.epoch(),
              Durations.format(drainTimeout));
          thread.interrupt();
          heartbeat.join(thread, drainTimeout);
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
    control.status(new EngineStatus.Standby(term.lossReason()));
    LOG.info("leadership of epoch {} ended — standing by", term.epoch());
  }
}
