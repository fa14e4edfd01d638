package io.sf2loki.pipeline;

import io.sf2loki.config.LaneConfig;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.Ticker;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One lane of a run: its bounded queue, the hand-off between its stages, its live producers and
 * whether it moves.
 */
final class LaneRuntime {

  final Source.Lane lane;
  final LaneQueue queue;
  final BatchHandoff handoff;
  final AtomicInteger producers = new AtomicInteger();
  final LaneProgress progress;

  LaneRuntime(Source.Lane lane, LaneConfig bounds, Ticker ticker) {
    this.lane = lane;
    this.queue = new LaneQueue(bounds.queueMaxEntries(), bounds.queueMaxBytes());
    this.handoff = new BatchHandoff(queue::wakeConsumer);
    this.progress = new LaneProgress(lane, queue, ticker);
  }

  /** A source of this lane ended; the last one closes the queue. */
  void producerDone() {
    if (producers.decrementAndGet() == 0) {
      queue.close();
    }
  }
}
