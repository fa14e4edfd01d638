package io.sf2loki.pipeline;

import io.sf2loki.model.Batch;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The FIFO between a lane's batching stage and its delivery stage: a rendezvous holding at most
 * <em>one</em> waiting batch. {@link #put} places the batch and returns only once the delivery
 * stage has taken it, so per lane there are at most two formed batches outside the queue: the one
 * being pushed and the one waiting here (the batcher is empty while {@link #put} waits). One
 * waiting batch is all the overlap needs: the next batch is formed while the current one is pushed;
 * a deeper hand-off would only hold more memory outside the lane's byte budget and add nothing once
 * either stage is the bottleneck.
 *
 * <p>Memory: a batch leaves the lane queue's byte budget when the batching stage polls its entries,
 * so the waiting batch and the one in push (each at most {@code batch.max_bytes} of lines, about
 * 1.6× that on the heap with 1 KiB lines, plus its encoded body, about 0.3× with protobuf+snappy)
 * are not charged to {@code queue_max_bytes}; with the default 1 MiB batches that is under 5 MiB
 * per lane, part of the fixed 64 MiB headroom of the bound {@code lanes × queue_max_bytes + 64
 * MiB}.
 *
 * <p>Ownership is exact, so an abandoned batch is counted once: a batch belongs to the delivery
 * stage once {@link #take} returned it; until then it belongs to the batching stage, which gets it
 * back from {@link #put} (false) after an {@link #abort()} and abandons it. One producer, one
 * consumer.
 *
 * <p>It also tells the batching stage when the delivery stage is {@linkplain #idle() idle} (no
 * batch in push, none waiting), which an adaptive lane uses to send a partial batch at once.
 */
final class BatchHandoff {

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Runnable onIdle;
  private Batch waiting;
  private boolean delivering;
  private boolean closed;
  private boolean aborted;

  /**
   * @param onIdle run (outside the lock) each time the delivery stage becomes idle: it finished a
   *     batch, committed it and nothing waits; wakes the batching stage holding a partial batch
   */
  BatchHandoff(Runnable onIdle) {
    this.onIdle = onIdle;
  }

  /**
   * True while the delivery stage has no batch: none taken and not finished, none waiting. A batch
   * handed off now is pushed at once.
   */
  boolean idle() {
    lock.lock();
    try {
      return !delivering && waiting == null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Hands {@code batch} to the delivery stage and waits until it took it. Never throws: an
   * interrupt withdraws the batch like an abort does and is restored on return.
   *
   * @return true when the delivery stage took the batch; false when the hand-off was aborted (or
   *     the thread interrupted) first: the batch was withdrawn and the caller must abandon it
   */
  boolean put(Batch batch) {
    lock.lock();
    try {
      if (aborted) {
        return false;
      }
      waiting = batch;
      changed.signalAll();
      boolean interrupted = false;
      while (waiting == batch && !aborted && !interrupted) {
        try {
          changed.await();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt(); // teardown; the loop of the caller ends
      }
      if (waiting == batch) {
        waiting = null; // never taken: withdrawn, the caller abandons it
        return false;
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next batch, waiting for one; null once {@link #close()}d and empty. Calling it means the
   * previous batch is finished (pushed or dropped, and committed).
   *
   * @throws InterruptedException when interrupted, or when the hand-off is aborted (a waiting batch
   *     is then left for the batching stage to abandon)
   */
  Batch take() throws InterruptedException {
    boolean wentIdle;
    lock.lockInterruptibly();
    try {
      wentIdle = delivering && waiting == null;
      delivering = false;
    } finally {
      lock.unlock();
    }
    if (wentIdle) {
      onIdle.run();
    }
    lock.lockInterruptibly();
    try {
      while (waiting == null && !closed && !aborted) {
        changed.await();
      }
      if (aborted) {
        throw new InterruptedException("lane aborted");
      }
      Batch batch = waiting;
      waiting = null;
      delivering = batch != null;
      changed.signalAll();
      return batch;
    } finally {
      lock.unlock();
    }
  }

  /** The batching stage handed off its last batch; the delivery stage ends after it. */
  void close() {
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Ends the hand-off: a waiting batch goes back to the batching stage, nothing is taken. */
  void abort() {
    lock.lock();
    try {
      aborted = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
