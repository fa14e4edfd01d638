package io.sf2loki.pipeline;

import io.sf2loki.config.Durations;
import io.sf2loki.model.Batch;
import io.sf2loki.pipeline.egress.Admission;
import io.sf2loki.pipeline.egress.EgressWait;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.PermanentSinkException;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.StoreConflictException;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The delivery stage of one lane (its own thread): takes the batches the {@link LaneBatching} stage
 * formed, in order, from the {@link BatchHandoff}; pushes each (one push in flight per lane),
 * retrying retryable failures of the same batch with backoff until it succeeds or the run aborts;
 * and commits the batch's checkpoints after delivery or a counted drop (invariant 1), on the lane's
 * commit thread ({@link LaneCommits}) while it pushes the next batches. Because one thread pushes
 * every batch of the lane in the order formed, checkpoint-only batches included, and queues each
 * batch's checkpoints for the commit thread only after its push, in that order, nothing overtakes
 * an undelivered entry of its key.
 *
 * <p>A batch that cannot be delivered before the abort is abandoned: its keys are blocked for the
 * rest of the run. On its way out this stage aborts the hand-off, so a batch still waiting there is
 * given back to the batching stage and abandoned there, never taken and never committed.
 */
final class LaneDelivery implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(LaneDelivery.class);

  private final Source.Lane lane;
  private final BatchHandoff handoff;
  private final LaneProgress progress;
  private final LaneShared s;
  private final Backoff backoff;
  private final Duration maxRetryAfter;
  private final LaneCommits commits;

  /**
   * @param backoff the lane's wait between retries of the same batch
   * @param maxRetryAfter the cap on a server's Retry-After
   * @param threads makes the lane's commit thread ({@link LaneCommits})
   * @param maxQueuedCommitEntries how many delivered entries may wait for their commit besides the
   *     write in flight
   * @param commitInterval the least time between the starts of two of the lane's checkpoint writes
   */
  LaneDelivery(
      Source.Lane lane,
      BatchHandoff handoff,
      LaneProgress progress,
      LaneShared shared,
      Backoff backoff,
      Duration maxRetryAfter,
      ThreadFactory threads,
      int maxQueuedCommitEntries,
      Duration commitInterval) {
    this.lane = lane;
    this.handoff = handoff;
    this.progress = progress;
    this.s = shared;
    this.backoff = backoff;
    this.maxRetryAfter = maxRetryAfter;
    this.commits =
        new LaneCommits(
            threads,
            "sf2loki-lane-" + lane + "-commit",
            this::commit,
            u ->
                s.abandon(
                    lane,
                    u.updates().keySet(),
                    u.batches(),
                    u.entries(),
                    "delivered, never committed"),
            maxQueuedCommitEntries,
            shared.ticker(),
            commitInterval);
  }

  @Override
  public void run() {
    try {
      for (Batch batch = handoff.take(); batch != null; batch = handoff.take()) {
        if (!deliver(batch)) {
          return;
        }
      }
      commits.awaitPrevious();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // aborted; the owner reports the outcome
    } catch (Throwable e) {
      // An Error too (the snappy native library failing to load, an OutOfMemoryError while
      // encoding), or a checked exception a sink threw undeclared: without fail() the other stage
      // and the lane's producers would wait forever, or the run would end as if completed.
      LOG.error("{} lane delivery failed", lane, e);
      s.control().fail(e);
      if (e instanceof Error error) {
        throw error;
      }
    } finally {
      commits.close(); // the last commit ends before the lane reports it is done
      handoff.abort(); // a batch still waiting is given back and abandoned by the batching stage
      s.control().workerDone();
    }
  }

  /**
   * Delivers one batch and queues its commit; false when the run is ending and the lane must stop.
   */
  private boolean deliver(Batch batch) throws InterruptedException {
    if (s.control().isAborted()) {
      s.abandon(lane, batch, "taken after the abort");
      return false;
    }
    if (batch.isCheckpointOnly()) {
      s.metrics().flushedWithoutPush(s.clock().instant().getEpochSecond());
    } else {
      Admission admission = admit(batch);
      if (admission instanceof Admission.GiveUp) {
        s.abandon(lane, batch, "held by the egress budget or caps");
        return false;
      }
      if (admission instanceof Admission.Drop) {
        s.metrics().dropped(batch.deliverable(), "budget");
      } else if (!pushUntilAborted(batch)) {
        s.abandon(lane, batch, "in push");
        return false;
      }
    }
    boolean started = commits.start(batch);
    progress.beat();
    return started && !s.control().isAborted();
  }

  /** Once per batch, before its first push attempt: retries are not admitted again. */
  private Admission admit(Batch batch) {
    EgressWait wait =
        new EgressWait() {
          @Override
          public boolean await(Duration duration) throws InterruptedException {
            progress.beat(); // waiting on the budget or a cap is not a stall
            boolean aborted = s.control().awaitAbort(duration);
            progress.beat();
            return aborted;
          }

          @Override
          public boolean stopping() {
            return s.control().isStopping();
          }
        };
    try {
      return s.egress().admit(lane, batch.deliverable().size(), lineBytes(batch), wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // teardown; the batch is abandoned by the caller
      return new Admission.GiveUp();
    }
  }

  private static long lineBytes(Batch batch) {
    long total = 0;
    for (var e : batch.deliverable()) {
      total += e.lineUtf8Size();
    }
    return total;
  }

  private boolean pushUntilAborted(Batch batch) {
    try {
      return push(batch);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // teardown; the batch is abandoned below
      return false;
    }
  }

  /** Pushes until delivered or counted as dropped (true), or the run aborts (false). */
  private boolean push(Batch batch) throws InterruptedException {
    long start = s.ticker().nanoTime();
    for (int attempt = 1; ; attempt++) {
      if (s.control().isAborted()) {
        return false;
      }
      try {
        s.sink().push(batch);
        s.egress().pushed(lane, lineBytes(batch));
        progress.beat();
        Duration took = Duration.ofNanos(s.ticker().nanoTime() - start);
        s.metrics().pushSucceeded(took, s.clock().instant().getEpochSecond());
        s.metrics().laneHealthy(lane);
        if (attempt > 1) {
          LOG.info("{} lane: push succeeded after {} attempts", lane, attempt);
        }
        return true;
      } catch (PermanentSinkException e) {
        progress.beat();
        s.metrics().dropped(batch.deliverable(), e.reason());
        s.metrics().laneHealthy(lane);
        LOG.warn(
            "{} lane: dropped {} entries Loki can never accept ({}): {}",
            lane,
            batch.deliverable().size(),
            e.reason(),
            e.getMessage());
        return true;
      } catch (RetryableSinkException e) {
        progress.beat();
        s.metrics().pushRetried(lane, s.clock().instant());
        Duration wait = backoff.delay(attempt);
        if (e.retryAfter().isPresent()) {
          wait = Backoff.honouring(wait, e.retryAfter().get(), maxRetryAfter);
        }
        if (attempt == 1 || attempt % 10 == 0) {
          LOG.warn(
              "{} lane: push failed ({}); retrying the same batch in {}",
              lane,
              e.getMessage(),
              Durations.format(wait));
        }
        if (s.control().awaitAbort(wait)) {
          return false;
        }
      }
    }
  }

  private boolean commit(LaneCommits.Uncommitted batches) {
    try {
      s.committer().commit(batches.updates());
      progress.beat(); // a lane whose pushes wait for a slow write still moves with each write
      return true;
    } catch (FencedException | StoreConflictException e) {
      LOG.info("{} lane: checkpoint commit refused, lost leadership: {}", lane, e.getMessage());
      s.control().lostLeadership(e.getMessage());
    } catch (RuntimeException e) {
      if (s.control().isAborted()) {
        // the teardown interrupted a commit still retrying when the grace ran out: not a failure
        s.abandon(
            lane,
            batches.updates().keySet(),
            batches.batches(),
            batches.entries(),
            "delivered, its commit interrupted");
        return false;
      }
      LOG.error("{} lane: checkpoint commit failed: {}", lane, e.toString());
      s.control().fail(e);
    }
    return false;
  }
}
