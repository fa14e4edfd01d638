package io.sf2loki.pipeline;

import io.sf2loki.model.Batch;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.PermanentSinkException;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.StoreConflictException;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer of one lane: batches its queue, pushes each batch (one push in flight per lane),
 * retries retryable failures of the same batch with backoff until it succeeds or the run aborts,
 * and commits the batch's checkpoints after delivery or a counted drop (invariant 1). A batch that
 * cannot be delivered before the abort is abandoned: its keys are blocked for the rest of the run.
 */
final class LaneWorker implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(LaneWorker.class);
  private static final long MAX_IDLE_NANOS = Duration.ofSeconds(1).toNanos();

  /** What the workers of a run share. */
  record Shared(
      Sink sink,
      Committer committer,
      RunControl control,
      PipelineMetrics metrics,
      Backoff backoff,
      Duration maxRetryAfter,
      Ticker ticker,
      Clock clock) {}

  private final Source.Lane lane;
  private final LaneQueue queue;
  private final Batcher batcher;
  private final Shared s;

  LaneWorker(Source.Lane lane, LaneQueue queue, Batcher batcher, Shared shared) {
    this.lane = lane;
    this.queue = queue;
    this.batcher = batcher;
    this.s = shared;
  }

  @Override
  public void run() {
    try {
      consume();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // aborted; the owner reports the outcome
    } catch (RuntimeException e) {
      LOG.error("{} lane failed", lane, e);
      s.control().fail(e);
    } finally {
      s.control().workerDone();
    }
  }

  private void consume() throws InterruptedException {
    while (true) {
      Optional<Batch> due = batcher.pollDue(s.ticker().nanoTime());
      if (due.isPresent()) {
        if (!deliver(due.get())) {
          return;
        }
        continue;
      }
      long wait = Math.min(batcher.nanosUntilDue(s.ticker().nanoTime()), MAX_IDLE_NANOS);
      LogEntry e = queue.poll(wait);
      if (e == LaneQueue.END) {
        Optional<Batch> last = batcher.drain();
        if (last.isPresent()) {
          deliver(last.get());
        }
        return;
      }
      if (e != null) {
        Optional<Batch> full = batcher.add(e, s.ticker().nanoTime());
        if (full.isPresent() && !deliver(full.get())) {
          return;
        }
      }
    }
  }

  /** Delivers and commits one batch; false when the run is ending and the lane must stop. */
  private boolean deliver(Batch batch) {
    if (batch.isCheckpointOnly()) {
      s.metrics().flushedWithoutPush(s.clock().instant().getEpochSecond());
    } else if (!pushUntilAborted(batch)) {
      abandon(batch);
      return false;
    }
    return commit(batch) && !s.control().isAborted();
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
        Duration took = Duration.ofNanos(s.ticker().nanoTime() - start);
        s.metrics().pushSucceeded(took, s.clock().instant().getEpochSecond());
        s.metrics().laneHealthy(lane);
        if (attempt > 1) {
          LOG.info("{} lane: push succeeded after {} attempts", lane, attempt);
        }
        return true;
      } catch (PermanentSinkException e) {
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
        s.metrics().pushRetried(lane, s.clock().instant());
        Duration wait = s.backoff().delay(attempt);
        if (e.retryAfter().isPresent()) {
          wait = Backoff.honouring(wait, e.retryAfter().get(), s.maxRetryAfter());
        }
        if (attempt == 1 || attempt % 10 == 0) {
          LOG.warn(
              "{} lane: push failed ({}); retrying the same batch in {}",
              lane,
              e.getMessage(),
              wait);
        }
        if (s.control().awaitAbort(wait)) {
          return false;
        }
      }
    }
  }

  private void abandon(Batch batch) {
    Set<String> keys =
        batch.entries().stream()
            .flatMap(e -> e.checkpoint().stream())
            .map(CheckpointToken::key)
            .collect(Collectors.toSet());
    s.committer().block(keys);
    s.control().abandoned();
    LOG.warn(
        "{} lane: abandoned an undelivered batch of {} entries uncommitted; keys {} stay at their"
            + " last committed positions for this run",
        lane,
        batch.entries().size(),
        keys);
  }

  private boolean commit(Batch batch) {
    try {
      s.committer().commit(batch.lastCheckpointPerKey());
      return true;
    } catch (FencedException | StoreConflictException e) {
      LOG.info("{} lane: checkpoint commit refused, lost leadership: {}", lane, e.getMessage());
      s.control().lostLeadership(e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("{} lane: checkpoint commit failed: {}", lane, e.toString());
      s.control().fail(e);
    }
    return false;
  }
}
