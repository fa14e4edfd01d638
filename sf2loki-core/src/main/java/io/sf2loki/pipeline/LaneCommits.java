package io.sf2loki.pipeline;

import io.sf2loki.model.Batch;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
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
 * <p>Spaced: a write starts at least {@code minInterval} after the previous one started (the
 * streaming lane's {@code state.streaming_commit_interval}), taking everything delivered meanwhile.
 * Each file-store write costs two fsyncs and each S3 or GCS write a request; writing after every
 * push made the streaming lane spend more CPU on checkpoint I/O than on its pushes
 * (docs/performance.md §4). The wait ends early when the queue reaches its bound, when the lane
 * ends ({@link #awaitPrevious}) and at {@link #close}, so a stop still commits everything
 * delivered. A crash re-sends what was delivered since the last write: at most about {@code
 * minInterval} of entries, identical lines Loki keeps once.
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
  private final Ticker ticker;
  private final long minIntervalNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Condition hurry = lock.newCondition(); // ends the wait between writes
  // Guarded by lock.
  private Map<String, String> queued = new LinkedHashMap<>();
  private int queuedBatches;
  private int queuedEntries;
  private boolean busy; // a drain task is scheduled or writing
  private boolean stopped; // a commit said the lane must stop
  private boolean ending; // the lane ends: write what is queued without waiting for the interval
  private boolean full; // the delivery stage waits for room: write now, not after the interval
  private boolean wrote; // a write started before (the commit thread's own, read under lock)
  private long lastWriteStarted; // ticker nanos; the commit thread's own
  private Throwable crash;

  /**
   * @param threads makes the one commit thread, named {@code name}
   * @param commit writes the checkpoints of one or more delivered batches; false when the lane must
   *     stop
   * @param abandoned told of delivered batches whose checkpoints were never written because the
   *     lane was torn down
   * @param maxQueuedEntries how many delivered entries may wait for a write besides the one in
   *     flight (at least one batch always may)
   * @param ticker measures the time since the previous write started
   * @param minInterval the least time from one write's start to the next's; zero writes as soon as
   *     the previous write ended
   */
  LaneCommits(
      ThreadFactory threads,
      String name,
      Predicate<Uncommitted> commit,
      Consumer<Uncommitted> abandoned,
      int maxQueuedEntries,
      Ticker ticker,
      Duration minInterval) {
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
    this.ticker = ticker;
    this.minIntervalNanos = minInterval.toNanos();
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
        full = true; // a full queue is written now, not after the interval
        hurry.signal();
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
        awaitInterval();
        if (queuedBatches == 0 || stopped) {
          busy = false;
          changed.signalAll();
          return;
        }
        wrote = true;
        lastWriteStarted = ticker.nanoTime();
        next = new Uncommitted(queued, queuedBatches, queuedEntries);
        full = false;
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
   * Under the lock, with something queued: waits out the rest of the interval since the previous
   * write started, unless the lane ends, stops or the delivery stage waits for room. The rest is
   * read from the ticker once and then waited for on the lock's condition, so a test's frozen
   * ticker delays a write by one interval, never for ever.
   */
  private void awaitInterval() {
    if (!wrote || queuedBatches == 0) {
      return;
    }
    long left = minIntervalNanos - (ticker.nanoTime() - lastWriteStarted);
    try {
      while (left > 0 && !ending && !stopped && !full) {
        left = hurry.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // close() interrupts only after it set stopped
    }
  }

  /**
   * Waits until every queued commit was written; false when a commit said the lane must stop.
   * Nothing is queued meanwhile (the caller is the only one who queues).
   */
  boolean awaitPrevious() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      ending = true;
      hurry.signal();
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
    lock.lock();
    try {
      ending = true;
      hurry.signal();
    } finally {
      lock.unlock();
    }
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
