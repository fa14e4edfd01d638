package io.sf2loki.pipeline;

import io.sf2loki.model.Batch;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A lane's commits on a thread of their own, so that the delivery stage goes on pushing while
 * checkpoints are written: a store write (an fsync, a round trip, the other lane's write ahead of
 * it) is in no push cycle. The delivery stage queues each delivered batch's checkpoints and goes
 * on; the commit thread writes what is queued, in order, all of it in one write when several
 * batches were delivered during the previous write (their last value per key, as writing them one
 * by one would leave it). A commit thus still starts only after its own batch was delivered, and
 * the commits keep the order of the batches.
 *
 * <p>The delivery stage waiting for the previous commit before it took its next batch made the
 * streaming lane's push cycle as long as a write whenever a write was longer than a push: during an
 * EventLogFile drain, a live event waited for the bulk lane's write and its own
 * (docs/performance.md §4, fourth round).
 *
 * <p>Bounded: once {@code maxQueuedEntries} delivered entries wait for a write besides the one in
 * flight, the delivery stage waits before it queues more, so a store write that hangs stops the
 * lane (and shows as its stall) instead of letting it deliver without ever committing, and a crash
 * re-sends at most about that many delivered entries more than before.
 *
 * <p>{@link #start} and {@link #awaitPrevious} are called by the delivery stage's thread only.
 */
final class LaneCommits {

  /** Delivered batches' checkpoints waiting for one write: last value per key, in batch order. */
  record Uncommitted(Map<String, String> updates, int batches, int entries) {}

  private final ExecutorService thread;
  private final Predicate<Uncommitted> commit;
  private final Consumer<Uncommitted> abandoned;
  private final int maxQueuedEntries;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // Guarded by lock.
  private Map<String, String> queued = new LinkedHashMap<>();
  private int queuedBatches;
  private int queuedEntries;
  private boolean busy; // a drain task is scheduled or writing
  private boolean stopped; // a commit said the lane must stop
  private Throwable crash;

  /**
   * @param threads makes the one commit thread, named {@code name}
   * @param commit writes the checkpoints of one or more delivered batches; false when the lane must
   *     stop
   * @param abandoned told of delivered batches whose checkpoints were never written because the
   *     lane was torn down
   * @param maxQueuedEntries how many delivered entries may wait for a write besides the one in
   *     flight (at least one batch always may)
   */
  LaneCommits(
      ThreadFactory threads,
      String name,
      Predicate<Uncommitted> commit,
      Consumer<Uncommitted> abandoned,
      int maxQueuedEntries) {
    this.thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = threads.newThread(r);
              t.setName(name);
              return t;
            });
    this.commit = commit;
    this.abandoned = abandoned;
    this.maxQueuedEntries = maxQueuedEntries;
  }

  /**
   * Queues the checkpoints of {@code delivered} for the commit thread, waiting first while the
   * queue is full.
   *
   * @return false, and nothing queued, when a commit said the lane must stop
   */
  boolean start(Batch delivered) throws InterruptedException {
    int entries = delivered.entries().size();
    lock.lockInterruptibly();
    try {
      while (!stopped && queuedBatches > 0 && queuedEntries + entries > maxQueuedEntries) {
        changed.await();
      }
      if (stopped) {
        rethrowCrash();
        return false;
      }
      queued.putAll(delivered.lastCheckpointPerKey());
      queuedBatches++;
      queuedEntries += entries;
      if (!busy) {
        busy = true;
        thread.execute(this::drain);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** The commit thread: writes what is queued until nothing is. */
  private void drain() {
    while (true) {
      Uncommitted next;
      lock.lock();
      try {
        if (queuedBatches == 0 || stopped) {
          busy = false;
          changed.signalAll();
          return;
        }
        next = new Uncommitted(queued, queuedBatches, queuedEntries);
        queued = new LinkedHashMap<>();
        queuedBatches = 0;
        queuedEntries = 0;
        changed.signalAll(); // room for the delivery stage
      } finally {
        lock.unlock();
      }
      boolean go;
      Throwable failure = null;
      try {
        go = commit.test(next);
      } catch (Throwable e) {
        go = false;
        failure = e;
      }
      if (!go) {
        lock.lock();
        try {
          stopped = true;
          crash = failure;
        } finally {
          lock.unlock();
        }
      }
    }
  }

  /**
   * Waits until every queued commit was written; false when a commit said the lane must stop.
   * Nothing is queued meanwhile (the caller is the only one who queues).
   */
  boolean awaitPrevious() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (busy) {
        changed.await();
      }
      rethrowCrash();
      return !stopped;
    } finally {
      lock.unlock();
    }
  }

  private void rethrowCrash() {
    if (crash == null) {
      return;
    }
    // the commit function handles the store's failures itself: anything else is a bug or an
    // Error, and fails the run through the delivery stage like an error of its own
    if (crash instanceof Error error) {
      throw error;
    }
    throw new IllegalStateException("checkpoint commit failed unexpectedly", crash);
  }

  /**
   * Ends the commit thread after the queued commits. An interrupt of the caller (the teardown's) is
   * passed on to the commit in flight, as it reached the commit when the delivery stage ran it
   * itself, and stays set; the batches still queued then are {@code abandoned}.
   */
  void close() {
    boolean interrupted = Thread.interrupted();
    if (interrupted) {
      lock.lock();
      try {
        stopped = true; // write nothing more
      } finally {
        lock.unlock();
      }
      thread.shutdownNow();
    } else {
      thread.shutdown();
    }
    while (true) {
      try {
        if (thread.awaitTermination(1, TimeUnit.SECONDS)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
        lock.lock();
        try {
          stopped = true;
        } finally {
          lock.unlock();
        }
        thread.shutdownNow();
      }
    }
    lock.lock();
    try {
      if (queuedBatches > 0) {
        abandoned.accept(new Uncommitted(queued, queuedBatches, queuedEntries));
        queued = new LinkedHashMap<>();
        queuedBatches = 0;
        queuedEntries = 0;
      }
    } finally {
      lock.unlock();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
