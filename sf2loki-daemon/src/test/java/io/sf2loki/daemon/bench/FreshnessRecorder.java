package io.sf2loki.daemon.bench;

import io.sf2loki.testkit.loki.DecodedEntry;
import io.sf2loki.testkit.loki.DecodedStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SynchronizedHistogram;

/**
 * Publish-to-arrival latencies of numbered events: {@link #published} stamps event {@code seq}
 * (System.nanoTime), {@link #arrived} the first time it shows up downstream; the latencies of
 * events from {@code firstMeasured} on go into a histogram of microseconds. An event's number
 * travels in its {@code EventIdentifier}, {@code "bench-<seq>"}, so it is read back from the line
 * Loki stored. Thread-safe.
 */
final class FreshnessRecorder {

  static final String MARK = "\"bench-";

  private final AtomicLongArray publishedAt;
  private final AtomicIntegerArray arrivedOnce;
  private final long firstMeasured;
  private final Histogram micros = new SynchronizedHistogram(TimeUnit.MINUTES.toMicros(10), 3);
  private final AtomicLong arrived = new AtomicLong();
  private final AtomicLong duplicates = new AtomicLong();

  /**
   * @param capacity the most events that will be published
   * @param firstMeasured events numbered below this are warm-up: counted, not measured
   */
  FreshnessRecorder(int capacity, long firstMeasured) {
    this(new AtomicLongArray(capacity), firstMeasured);
  }

  private FreshnessRecorder(AtomicLongArray publishedAt, long firstMeasured) {
    this.publishedAt = publishedAt;
    this.arrivedOnce = new AtomicIntegerArray(publishedAt.length());
    this.firstMeasured = firstMeasured;
  }

  /** A recorder of another point downstream of the same events: it shares their publish stamps. */
  FreshnessRecorder downstream() {
    return new FreshnessRecorder(publishedAt, firstMeasured);
  }

  int capacity() {
    return publishedAt.length();
  }

  /** Event {@code seq} is being published now ({@code nanos}, System.nanoTime). */
  void published(long seq, long nanos) {
    publishedAt.set((int) seq, nanos);
  }

  /** Event {@code seq} arrived at {@code nanos}; a repeat is only counted. */
  void arrived(long seq, long nanos) {
    if (seq < 0 || seq >= arrivedOnce.length() || !arrivedOnce.compareAndSet((int) seq, 0, 1)) {
      duplicates.incrementAndGet();
      return;
    }
    arrived.incrementAndGet();
    if (seq >= firstMeasured) {
      micros.recordValue(
          Math.max(0, TimeUnit.NANOSECONDS.toMicros(nanos - publishedAt.get((int) seq))));
    }
  }

  /** Every numbered entry of {@code streams} arrived at {@code nanos}; returns how many. */
  int arrived(List<DecodedStream> streams, long nanos) {
    int n = 0;
    for (DecodedStream s : streams) {
      for (DecodedEntry e : s.entries()) {
        long seq = seqOf(e.line());
        if (seq >= 0) {
          arrived(seq, nanos);
          n++;
        }
      }
    }
    return n;
  }

  /** Distinct events arrived so far, warm-up included. */
  long arrivedCount() {
    return arrived.get();
  }

  long duplicates() {
    return duplicates.get();
  }

  /** The measured latencies so far, in microseconds. */
  Histogram histogram() {
    return micros.copy();
  }

  /** The number after {@code "bench-} in {@code line}, or -1. */
  static long seqOf(String line) {
    int at = line.indexOf(MARK);
    if (at < 0) {
      return -1;
    }
    long seq = 0;
    for (int i = at + MARK.length(); i < line.length(); i++) {
      char c = line.charAt(i);
      if (c < '0' || c > '9') {
        break;
      }
      seq = seq * 10 + (c - '0');
    }
    return seq;
  }
}
