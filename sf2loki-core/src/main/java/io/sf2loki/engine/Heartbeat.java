package io.sf2loki.engine;

import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The engine's own heartbeat, on the injected {@link Ticker}: its supervising thread (the campaign
 * loop, the coordinator running on it, the hand-over of each term) beats whenever it works or
 * waits. Waits are cut into slices of at most {@link #INTERVAL}, each followed by a beat, so a wait
 * as long as a whole leadership term, or a long drain, keeps beating; a beat older than the
 * liveness timeout therefore means the thread is stuck (a hung mount, a deadlock), never that it
 * merely waits. Thread-safe.
 */
final class Heartbeat {

  /** The longest a healthy supervising thread goes without a beat while it waits. */
  static final Duration INTERVAL = Duration.ofSeconds(1);

  private final Ticker ticker;
  private volatile long last;

  Heartbeat(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.last = ticker.nanoTime();
  }

  /** The supervising thread is alive now. */
  void beat() {
    last = ticker.nanoTime();
  }

  /** How long ago the last beat was, once that is at least {@code timeout}; zero disables. */
  Optional<Duration> staleAfter(Duration timeout) {
    Duration age = Duration.ofNanos(Math.max(0, ticker.nanoTime() - last));
    return !timeout.isZero() && age.compareTo(timeout) >= 0 ? Optional.of(age) : Optional.empty();
  }

  /**
   * {@code stop} as the supervising thread's code sees it: every check beats, and every wait beats
   * at least once per {@link #INTERVAL} while it lasts.
   */
  StopSignal beating(StopSignal stop) {
    Objects.requireNonNull(stop, "stop");
    return new StopSignal() {
      @Override
      public boolean isStopRequested() {
        beat();
        return stop.isStopRequested();
      }

      @Override
      public boolean awaitStop(Duration timeout) throws InterruptedException {
        Duration left = timeout;
        while (true) {
          beat();
          Duration slice = left.compareTo(INTERVAL) < 0 ? left : INTERVAL;
          if (stop.awaitStop(slice)) {
            beat();
            return true;
          }
          left = left.minus(slice);
          if (left.isNegative() || left.isZero()) {
            beat();
            return false;
          }
        }
      }
    };
  }

  /**
   * Waits up to {@code timeout} for {@code thread} to end, beating at least once per {@link
   * #INTERVAL} while it waits.
   */
  void join(Thread thread, Duration timeout) throws InterruptedException {
    long left = timeout.toMillis();
    while (left > 0 && thread.isAlive()) {
      long slice = Math.min(left, INTERVAL.toMillis());
      beat();
      thread.join(slice);
      left -= slice;
    }
    beat();
  }
}
