package io.sf2loki.spi;

import io.sf2loki.model.LogEntry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What the pipeline offers a running {@link Source}. Thread-safe; one per source run. */
public interface SourceContext {

  /**
   * Enqueues an entry on the source's lane, blocking while the lane is full (by count or bytes).
   * Nothing is dropped for lack of space (invariant 4).
   *
   * @throws InterruptedException when the run is being torn down while blocked
   */
  void emit(LogEntry entry) throws InterruptedException;

  /**
   * Enqueues {@code entries} in their order, as {@link #emit} would one by one: a source that
   * receives its events in batches hands each batch over at once, which the pipeline does under one
   * lock instead of one per entry. Blocks while the lane is full; entries enqueued before an
   * interruption stay enqueued.
   *
   * @throws InterruptedException when the run is being torn down while blocked
   */
  default void emit(List<LogEntry> entries) throws InterruptedException {
    for (LogEntry e : entries) {
      emit(e);
    }
  }

  /**
   * Says that the calling thread gave up the unit it was emitting ({@link LogEntry#endsUnit})
   * before its end: a LogFile cut short by a bad body, an error or a stop. Its entries emitted so
   * far will be read again from the position before the unit. A consumer that keeps units whole
   * (Kafka Connect's exactly-once transactions) discards them; the daemon's lanes deliver them, as
   * at least once allows. A thread not inside a unit may call it; it then does nothing.
   */
  default void abandonUnit() {}

  /**
   * The committed resume position for {@code key}, read from the store when the run started and
   * updated as this run's commits succeed.
   */
  Optional<String> checkpoint(String key);

  /** True once the run should end; sources check it between units of work. */
  boolean stopRequested();

  /**
   * Waits up to {@code timeout} (a poll interval, a backoff) and returns early when a stop is
   * requested.
   *
   * @return true when a stop was requested
   */
  boolean awaitStop(Duration timeout) throws InterruptedException;
}
