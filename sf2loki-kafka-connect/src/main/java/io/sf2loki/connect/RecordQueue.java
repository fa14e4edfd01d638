package io.sf2loki.connect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The bounded hand-over between a task's source threads and Connect's poll: the sources block while
 * it is full, so nothing is dropped for lack of space and memory stays bounded (invariant 4).
 * Thread-safe.
 */
final class RecordQueue {

  private final BlockingQueue<SourceRecord> records;
  private final int pollMax;

  /**
   * @param pollMax the most records one {@link #poll} returns; the queue holds twice that
   */
  RecordQueue(int pollMax) {
    this.pollMax = pollMax;
    this.records = new ArrayBlockingQueue<>(2 * pollMax);
  }

  /**
   * Waits up to {@code timeout} for room.
   *
   * @return false when there was none
   */
  boolean offer(SourceRecord record, Duration timeout) throws InterruptedException {
    return records.offer(record, timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Up to {@code pollMax} records in emit order, waiting up to {@code timeout} for the first. */
  List<SourceRecord> poll(Duration timeout) throws InterruptedException {
    SourceRecord first = records.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (first == null) {
      return List.of();
    }
    List<SourceRecord> out = new ArrayList<>(Math.min(pollMax, records.size() + 1));
    out.add(first);
    records.drainTo(out, pollMax - 1);
    return out;
  }
}
