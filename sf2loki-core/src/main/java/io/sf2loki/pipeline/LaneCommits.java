package io.sf2loki.pipeline;

import io.sf2loki.model.Batch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A lane's commits on a thread of their own, one at a time, so that the delivery stage pushes batch
 * N + 1 while batch N's checkpoints are written: a store write (an fsync, a round trip, the other
 * lane's write ahead of it) no longer sits in every push cycle, where it delayed the next live
 * event by as long. A commit still starts only after its own batch was delivered (the caller starts
 * it then), and the next one only after it ended: commits keep the order of the batches.
 *
 * <p>Used by the delivery stage's thread only.
 */
final class LaneCommits {

  private final ExecutorService thread;
  private final Predicate<Batch> commit;
  private Future<Boolean> inFlight;

  /**
   * @param threads makes the one commit thread, named {@code name}
   * @param commit commits a batch's checkpoints; false when the lane must stop
   */
  LaneCommits(ThreadFactory threads, String name, Predicate<Batch> commit) {
    this.thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = threads.newThread(r);
              t.setName(name);
              return t;
            });
    this.commit = commit;
  }

  /**
   * Waits for the previous batch's commit, then starts committing {@code delivered}.
   *
   * @return false, and nothing started, when the previous commit said the lane must stop
   */
  boolean start(Batch delivered) throws InterruptedException {
    if (!awaitPrevious()) {
      return false;
    }
    inFlight = thread.submit(() -> commit.test(delivered));
    return true;
  }

  /** Waits for the commit in flight, if any; false when it said the lane must stop. */
  boolean awaitPrevious() throws InterruptedException {
    if (inFlight == null) {
      return true;
    }
    try {
      return inFlight.get();
    } catch (ExecutionException e) {
      // the commit function handles the store's failures itself: anything else is a bug or an
      // Error, and fails the run through the delivery stage like an error of its own
      Throwable cause = e.getCause();
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException("checkpoint commit failed unexpectedly", cause);
    } finally {
      if (inFlight.isDone()) {
        inFlight = null;
      }
    }
  }

  /**
   * Ends the commit thread after the commit in flight. An interrupt of the caller (the teardown's)
   * is passed on to that commit, as it reached the commit when the delivery stage ran it itself,
   * and stays set.
   */
  void close() {
    boolean interrupted = Thread.interrupted();
    if (interrupted && inFlight != null) {
      inFlight.cancel(true);
    }
    thread.shutdown();
    while (true) {
      try {
        if (thread.awaitTermination(1, TimeUnit.SECONDS)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
        thread.shutdownNow();
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
