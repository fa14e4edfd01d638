package io.sf2loki.pipeline;

import io.sf2loki.model.LogEntry;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lane's bounded FIFO, by entry count and by bytes (invariant 4). Producers block while the lane
 * is full; an entry is admitted while the lane is <em>under</em> its byte budget, so one entry
 * larger than the whole budget still gets through an empty lane instead of deadlocking it. Nothing
 * is ever dropped for lack of space.
 *
 * <p>Many producers, one consumer. {@link #close()} marks the end of production (the consumer
 * drains what is left); {@link #abort()} tears the lane down and wakes everyone.
 */
final class LaneQueue {

  /**
   * Bytes charged per entry beyond its content. loki-push.md §8 says 64; the JVM holds about 1.6 KB
   * for an entry with 1 KiB of line (the line, its metadata map and strings, the token, the queue
   * item), so 64 let the heap outgrow {@code lanes × queue_max_bytes}. 512 keeps the documented
   * memory bound true (measured in docs/performance.md).
   */
  static final int ENTRY_OVERHEAD = 512;

  /** What {@link #poll} returns once the lane is closed and empty. */
  static final LogEntry END =
      LogEntry.checkpointOnly(new io.sf2loki.model.CheckpointToken("end", ""));

  private record Item(LogEntry entry, long cost) {}

  private final int maxEntries;
  private final long maxBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final Condition notFull = lock.newCondition();
  private final ArrayDeque<Item> items = new ArrayDeque<>();
  private long bytes;
  private boolean closed;
  private boolean aborted;
  private boolean consumerWoken;

  /**
   * @param maxEntries entry bound (checkpoint-only entries count)
   * @param maxBytes byte budget; 0 disables it
   */
  LaneQueue(int maxEntries, long maxBytes) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  /**
   * The byte cost of an entry: line + 512 + label and metadata names and values + checkpoint value;
   * checkpoint-only entries are free.
   */
  static long cost(LogEntry e) {
    if (e.isCheckpointOnly()) {
      return 0;
    }
    long checkpoint = e.checkpoint().map(t -> (long) t.value().length()).orElse(0L);
    // utf8Size() = line + labels + metadata + its own fixed overhead; close enough to §8's rule.
    return e.utf8Size() + ENTRY_OVERHEAD + checkpoint;
  }

  /**
   * Appends {@code entry}, blocking while the lane is full.
   *
   * @throws InterruptedException when interrupted or when the lane is aborted while waiting
   */
  void put(LogEntry entry) throws InterruptedException {
    long cost = cost(entry);
    lock.lockInterruptibly();
    try {
      while (!aborted && full()) {
        notFull.await();
      }
      if (aborted) {
        throw new InterruptedException("lane aborted");
      }
      items.addLast(new Item(entry, cost));
      bytes += cost;
      notEmpty.signal();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends {@code entries} in order under one lock (one producer's batch), blocking while the lane
   * is full as {@link #put} does for each; the consumer is signalled once for the batch, and before
   * each wait for room so it drains what was added.
   *
   * @throws InterruptedException when interrupted or when the lane is aborted while waiting; the
   *     entries appended before stay
   */
  void putAll(List<LogEntry> entries) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      boolean added = false;
      for (LogEntry entry : entries) {
        long cost = cost(entry);
        while (!aborted && full()) {
          if (added) {
            notEmpty.signal();
            added = false;
          }
          notFull.await();
        }
        if (aborted) {
          throw new InterruptedException("lane aborted");
        }
        items.addLast(new Item(entry, cost));
        bytes += cost;
        added = true;
      }
      if (added) {
        notEmpty.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  private boolean full() {
    return items.size() >= maxEntries || (maxBytes > 0 && bytes >= maxBytes);
  }

  /**
   * Blocked producers are woken once the lane has drained to half its bounds, not on every poll: a
   * full lane otherwise wakes its producer for each entry the consumer takes, the producer adds one
   * and blocks again, and the two threads trade a futex wake and a context switch per entry
   * (measured at about a microsecond of CPU per entry in docs/performance.md). The consumer must
   * call {@link #wakeProducers()} whenever it stops taking entries for any other reason than an
   * empty lane (which is below the mark), so no producer waits on a lane that is not full while
   * nobody drains it.
   */
  private boolean belowLowWatermark() {
    return items.size() <= maxEntries / 2 && (maxBytes == 0 || bytes <= maxBytes / 2);
  }

  /**
   * Wakes every blocked producer to re-check for room; the consumer calls it before it stops taking
   * entries (to hand a batch on), since it may have taken some without reaching the mark.
   */
  void wakeProducers() {
    lock.lock();
    try {
      notFull.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** True while some producer waits for room (tests: shows whether a poll woke it). */
  boolean hasWaitingProducers() {
    lock.lock();
    try {
      return lock.hasWaiters(notFull);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends the consumer's current (or next) wait in {@link #poll} on an empty lane early, with null:
   * something other than an entry changed what it waits for (the lane's delivery stage went idle).
   * Sticky until a poll consumed it, so a wake-up given just before the consumer starts waiting is
   * not lost.
   */
  void wakeConsumer() {
    lock.lock();
    try {
      consumerWoken = true;
      notEmpty.signal();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next entry, waiting up to {@code timeoutNanos}: null on timeout or after {@link
   * #wakeConsumer()}, {@link #END} once closed and drained.
   *
   * @throws InterruptedException when interrupted or aborted
   */
  LogEntry poll(long timeoutNanos) throws InterruptedException {
    long nanos = timeoutNanos;
    lock.lockInterruptibly();
    try {
      while (items.isEmpty() && !aborted) {
        if (closed) {
          return END;
        }
        if (consumerWoken) {
          consumerWoken = false;
          return null;
        }
        if (nanos <= 0) {
          return null;
        }
        nanos = notEmpty.awaitNanos(nanos);
      }
      if (aborted) {
        throw new InterruptedException("lane aborted");
      }
      Item item = items.pollFirst();
      bytes -= item.cost();
      if (belowLowWatermark()) {
        notFull.signalAll(); // byte costs differ: let every waiter re-check
      }
      return item.entry();
    } finally {
      lock.unlock();
    }
  }

  /** No more entries will be put; the consumer drains the rest and then sees {@link #END}. */
  void close() {
    lock.lock();
    try {
      closed = true;
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Tears the lane down: blocked producers and the consumer get {@link InterruptedException}. */
  void abort() {
    lock.lock();
    try {
      aborted = true;
      notEmpty.signalAll();
      notFull.signalAll();
    } finally {
      lock.unlock();
    }
  }

  int size() {
    lock.lock();
    try {
      return items.size();
    } finally {
      lock.unlock();
    }
  }

  long bytes() {
    lock.lock();
    try {
      return bytes;
    } finally {
      lock.unlock();
    }
  }
}
