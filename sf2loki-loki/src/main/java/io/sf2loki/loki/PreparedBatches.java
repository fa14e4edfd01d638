package io.sf2loki.loki;

import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The shaped entries (and, once encoded, the push body) of the last few batches, found by batch
 * <em>identity</em> ({@link Batch} is a record: its {@code equals} would compare every entry).
 *
 * <p>Why: a lane retries the same {@code Batch} object, and shaping it once keeps the truncation
 * and demotion counters exact across retries; and the pipeline {@linkplain LokiSink#prepare
 * prepares} the next batch of a lane while the previous one is pushed, so its encoding overlaps the
 * round trip. A live batch is either in push or waiting in a lane's hand-off, so two lanes need
 * four slots. A delivered batch is removed; one abandoned at shutdown is never pushed and is the
 * oldest, so the next run's first batches evict it. Four slots bound what is held here to four
 * batches (part of the memory bound's 64 MiB headroom). An evicted batch is merely shaped and
 * encoded again. Thread-safe.
 */
final class PreparedBatches {

  static final int CAPACITY = 4;

  /**
   * @param entries the shaped entries, as the sources made them (before any time-window placement)
   * @param plan their first placement, once planned (ahead of the push, or by its first attempt):
   *     every later plan of the batch starts from its view of the streams
   * @param body the encoded body of all of the plan's entries, when it was encoded ahead of the
   *     push
   * @param resolved the entries Loki already accepted or that were dropped, by identity: a retry of
   *     a batch that failed part-way through a bisection sends only the rest, so a dropped entry is
   *     not counted and dead-lettered twice. Mutated only by the batch's one push at a time.
   */
  record Prepared(
      Batch batch,
      List<LogEntry> entries,
      AtomicReference<WindowPlan> plan,
      Optional<EncodedBody> body,
      Set<LogEntry> resolved) {

    Prepared(Batch batch, List<LogEntry> entries, WindowPlan plan, Optional<EncodedBody> body) {
      this(
          batch,
          entries,
          new AtomicReference<>(plan),
          body,
          Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    /** The entries still to deliver, in order. */
    List<LogEntry> pending() {
      if (resolved.isEmpty()) {
        return entries;
      }
      return entries.stream().filter(e -> !resolved.contains(e)).toList();
    }
  }

  private final ArrayDeque<Prepared> slots = new ArrayDeque<>(CAPACITY);

  synchronized Optional<Prepared> find(Batch batch) {
    for (Prepared p : slots) {
      if (p.batch() == batch) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** Remembers {@code p}, replacing an earlier one of the same batch, evicting the oldest. */
  synchronized void put(Prepared p) {
    remove(p.batch());
    if (slots.size() >= CAPACITY) {
      slots.pollFirst();
    }
    slots.addLast(p);
  }

  /** Forgets {@code batch} (delivered: it is never pushed again). */
  synchronized void remove(Batch batch) {
    for (Iterator<Prepared> it = slots.iterator(); it.hasNext(); ) {
      if (it.next().batch() == batch) {
        it.remove();
        return;
      }
    }
  }
}
