package io.sf2loki.otlp;

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
 * The export of the last few batches: their entries, observed time and, once encoded, the body of
 * all of them, found by batch <em>identity</em> ({@link Batch} is a record: its {@code equals}
 * would compare every entry).
 *
 * <p>Why: the pipeline {@linkplain OtlpSink#prepare prepares} the next batch of a lane while the
 * previous one is pushed, so its encoding and gzip overlap the round trip; and a lane retries the
 * same {@code Batch} object, which then reuses the body instead of compressing the same records
 * again. A live batch is either in push or waiting in a lane's hand-off, so two lanes need four
 * slots; a delivered batch is removed, one abandoned at shutdown is the oldest and is evicted by
 * the next. An evicted batch is merely encoded again. Thread-safe.
 */
final class PreparedExports {

  static final int CAPACITY = 4;

  /**
   * @param entries the batch's deliverable entries, in order
   * @param observedNanos the records' {@code observed_time_unix_nano}: when the export was made,
   *     the same for every body of it (a retry's, a bisection's halves)
   * @param body the encoded body of all {@code entries}, once made: sent again, never re-encoded,
   *     while nothing of the batch is resolved
   * @param resolved the entries already delivered or dropped, by identity: a retry of a batch that
   *     failed part-way through a bisection sends only the rest, so a dropped entry is not counted
   *     and dead-lettered twice. Mutated only by the batch's one push at a time.
   */
  record Export(
      Batch batch,
      List<LogEntry> entries,
      long observedNanos,
      AtomicReference<OtlpEncoder.Body> body,
      Set<LogEntry> resolved) {

    Export(Batch batch, List<LogEntry> entries, long observedNanos, OtlpEncoder.Body body) {
      this(
          batch,
          entries,
          observedNanos,
          new AtomicReference<>(body),
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

  private final ArrayDeque<Export> slots = new ArrayDeque<>(CAPACITY);

  synchronized Optional<Export> find(Batch batch) {
    for (Export e : slots) {
      if (e.batch() == batch) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  /** Remembers {@code e}, replacing an earlier export of the same batch, evicting the oldest. */
  synchronized Export put(Export e) {
    remove(e.batch());
    if (slots.size() >= CAPACITY) {
      slots.pollFirst();
    }
    slots.addLast(e);
    return e;
  }

  /** Forgets {@code batch} (delivered: it is never pushed again). */
  synchronized void remove(Batch batch) {
    for (Iterator<Export> it = slots.iterator(); it.hasNext(); ) {
      if (it.next().batch() == batch) {
        it.remove();
        return;
      }
    }
  }
}
