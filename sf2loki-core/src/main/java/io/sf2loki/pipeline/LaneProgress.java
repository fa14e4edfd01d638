package io.sf2loki.pipeline;

import io.sf2loki.spi.Source;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.Optional;

/**
 * Whether one lane of a run moves, on the run's {@link Ticker}: the batching stage beats each time
 * it polls the queue (an entry taken, or the queue found empty), the delivery stage each time a
 * push attempt ends (delivered, dropped or failed retryably) or a checkpoint-only batch is
 * committed. A lane whose queue holds entries while no beat came is stalled: a push or a commit
 * that hangs, a stage that stopped. A retrying lane beats at every attempt, so it is never stalled
 * (its failing pushes are reported by {@link PipelineMetrics#sinkFailingSince()}). Thread-safe.
 */
final class LaneProgress {

  private final Source.Lane lane;
  private final LaneQueue queue;
  private final Ticker ticker;
  private volatile long last;

  LaneProgress(Source.Lane lane, LaneQueue queue, Ticker ticker) {
    this.lane = lane;
    this.queue = queue;
    this.ticker = ticker;
    this.last = ticker.nanoTime();
  }

  /** The lane moved at {@code nowNanos} (the run's ticker). */
  void beat(long nowNanos) {
    last = nowNanos;
  }

  /** The lane moved now. */
  void beat() {
    beat(ticker.nanoTime());
  }

  /** How long the lane has held queued entries without moving; empty while it moves or is empty. */
  Optional<LaneStall> stall() {
    int queued = queue.size();
    long since = ticker.nanoTime() - last;
    if (queued == 0 || since <= 0) {
      return Optional.empty();
    }
    return Optional.of(new LaneStall(lane, Duration.ofNanos(since), queued));
  }
}
