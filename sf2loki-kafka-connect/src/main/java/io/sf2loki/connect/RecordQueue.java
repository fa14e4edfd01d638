package io.sf2loki.connect;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The bounded hand-over between a task's source threads and Connect's poll: the sources block while
 * it is full, so nothing is dropped for lack of space and memory stays bounded (invariant 4).
 *
 * <p>With {@code unitsWhole} (exactly-once), the records of one source unit (a LogFile's rows, a
 * page of event records: {@link io.sf2loki.model.LogEntry#endsUnit}) enter the queue one after the
 * other: an emitter that is inside a unit holds the queue until it offers the record that ends the
 * unit, and the others wait. A transaction may then end after any record that ends a unit and
 * commit no row whose position it does not also commit. Without it, emitters interleave freely.
 *
 * <p>Thread-safe.
 */
final class RecordQueue {

  /**
   * One poll's records and the index of the last one after which a transaction may end.
   *
   * @param abortOpenTransaction a unit some of whose records were polled into the open transaction
   *     was abandoned: the open transaction holds nothing else and must be aborted (the poll then
   *     has no records)
   */
  record Polled(List<SourceRecord> records, int lastUnitEnd, boolean abortOpenTransaction) {

    static final Polled NONE = new Polled(List.of(), -1, false);
    static final Polled ABORT = new Polled(List.of(), -1, true);
  }

  /** A queued record; {@code unit} is the holder it was offered under, when it is inside a unit. */
  private record Queued(SourceRecord record, boolean endsUnit, Holder unit) {}

  /** Who holds the queue inside a unit: the run's context and the thread emitting the unit. */
  private record Holder(Object run, Thread thread) {}

  private final int pollMax;
  private final int capacity;
  private final boolean unitsWhole;
  private final ArrayDeque<Queued> records;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private Holder holder;
  // the unit whose records the last poll ended inside of: they are in the open transaction
  private Holder polledInto;
  private boolean abortPending;

  /**
   * @param pollMax the most records one {@link #poll} returns; the queue holds twice that
   * @param unitsWhole keep each source unit's records together (exactly-once)
   */
  RecordQueue(int pollMax, boolean unitsWhole) {
    this.pollMax = pollMax;
    this.capacity = 2 * pollMax;
    this.unitsWhole = unitsWhole;
    this.records = new ArrayDeque<>(capacity);
  }

  /** A queue that lets emitters interleave (at-least-once). */
  RecordQueue(int pollMax) {
    this(pollMax, false);
  }

  /**
   * Waits up to {@code timeout} for room (and, keeping units whole, for the unit another emitter is
   * inside to end).
   *
   * @param endsUnit whether {@code record} ends its source unit
   * @param run the run of sources the emitting thread belongs to (see {@link #endRun})
   * @return false when there was none
   */
  boolean offer(SourceRecord record, boolean endsUnit, Object run, Duration timeout)
      throws InterruptedException {
    long left = timeout.toNanos();
    Thread me = Thread.currentThread();
    lock.lockInterruptibly();
    try {
      while (records.size() >= capacity || heldByAnother(me)) {
        if (left <= 0) {
          return false;
        }
        left = changed.awaitNanos(left);
      }
      Holder unit = null;
      if (unitsWhole) {
        if (!endsUnit && holder == null) {
          holder = new Holder(run, me);
        }
        unit = endsUnit ? null : holder;
        if (endsUnit) {
          holder = null;
        }
      }
      records.addLast(new Queued(record, endsUnit, unit));
      changed.signalAll();
      return true;
    } finally {
      lock.unlock();
    }
  }

  private boolean heldByAnother(Thread me) {
    return holder != null && holder.thread() != me;
  }

  /**
   * Gives up the unit the calling thread is inside ({@link
   * io.sf2loki.spi.SourceContext#abandonUnit}): its records still queued are dropped, the open
   * transaction is aborted at the next poll when some of them were polled into it, and the other
   * emitters are let in. A resume reads the unit again from the position before it.
   */
  void abandonUnit() {
    lock.lock();
    try {
      if (holder != null && holder.thread() == Thread.currentThread()) {
        abandon(holder);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Gives up the unit a thread of {@code run} was inside when the run ended (a stop, or a failure
   * that ended its thread mid-file), as {@link #abandonUnit} does.
   */
  void endRun(Object run) {
    lock.lock();
    try {
      if (holder != null && holder.run() == run) {
        abandon(holder);
      }
    } finally {
      lock.unlock();
    }
  }

  private void abandon(Holder unit) {
    // the unit's records are the tail of the queue: it held the queue since its first one
    while (!records.isEmpty() && records.peekLast().unit() == unit) {
      records.pollLast();
    }
    if (polledInto == unit) {
      abortPending = true;
      polledInto = null;
    }
    holder = null;
    changed.signalAll();
  }

  /** Up to {@code pollMax} records in emit order, waiting up to {@code timeout} for the first. */
  Polled poll(Duration timeout) throws InterruptedException {
    long left = timeout.toNanos();
    lock.lockInterruptibly();
    try {
      if (abortPending) {
        abortPending = false;
        return Polled.ABORT;
      }
      while (records.isEmpty()) {
        if (left <= 0) {
          return Polled.NONE;
        }
        left = changed.awaitNanos(left);
        if (abortPending) {
          abortPending = false;
          return Polled.ABORT;
        }
      }
      int n = Math.min(pollMax, records.size());
      List<SourceRecord> out = new ArrayList<>(n);
      int lastUnitEnd = -1;
      Holder last = null;
      for (int i = 0; i < n; i++) {
        Queued queued = records.pollFirst();
        out.add(queued.record());
        if (queued.endsUnit()) {
          lastUnitEnd = i;
        }
        last = queued.unit();
      }
      if (lastUnitEnd >= 0 || last != null) {
        polledInto = last;
      }
      changed.signalAll();
      return new Polled(out, lastUnitEnd, false);
    } finally {
      lock.unlock();
    }
  }
}
