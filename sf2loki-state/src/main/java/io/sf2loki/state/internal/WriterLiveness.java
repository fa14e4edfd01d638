package io.sf2loki.state.internal;

import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * How a single-instance ({@code noop}) object store proves that its daemon is alive, and judges
 * another's writer stamp ({@link WriterStamp}).
 *
 * <p>The running daemon refreshes its stamp every {@code heartbeat} unless a commit did within half
 * of it, so its stamp changes at least every 1.5 × {@code heartbeat}. A newcomer finding another
 * writer's stamp watches it: if it changes, that writer is alive and the newcomer refuses to start;
 * if it stays the same for {@code window} of the newcomer's own monotonic time, the writer is gone
 * (crashed) and the newcomer takes the object over. Both measures are each process's own, so clocks
 * that differ between hosts cannot make a live writer look dead. Only a heartbeat older than {@code
 * expired} by the newcomer's wall clock, a crash long ago, is taken over without watching: that
 * trusts the hosts' clocks to agree within {@code expired} minus the heartbeat.
 *
 * @param heartbeat how often the running daemon refreshes its stamp
 * @param window how long a stamp must stay unchanged before another process takes the object over
 * @param expired how old a heartbeat must be, by the newcomer's clock, to be taken over at once
 * @param ticker monotonic time for the watching
 * @param pacemaker runs the heartbeat
 */
public record WriterLiveness(
    Duration heartbeat, Duration window, Duration expired, Ticker ticker, Pacemaker pacemaker) {

  /** The daemon's heartbeat: one stamp-only PUT per 10 s while it commits nothing. */
  public static final Duration HEARTBEAT = Duration.ofSeconds(10);

  /** Three heartbeats: a live writer renews twice within it even when a beat is late. */
  public static final Duration WINDOW = Duration.ofSeconds(30);

  /** A crash this long ago needs no watching. */
  public static final Duration EXPIRED = Duration.ofMinutes(10);

  public WriterLiveness {
    Objects.requireNonNull(ticker, "ticker");
    Objects.requireNonNull(pacemaker, "pacemaker");
    if (heartbeat.isNegative() || heartbeat.isZero()) {
      throw new IllegalArgumentException("heartbeat must be positive: " + heartbeat);
    }
    if (window.compareTo(heartbeat.multipliedBy(2)) < 0) {
      throw new IllegalArgumentException(
          "window (" + window + ") must be at least twice the heartbeat (" + heartbeat + ")");
    }
    if (expired.compareTo(window) < 0) {
      throw new IllegalArgumentException(
          "expired (" + expired + ") must not be below the window (" + window + ")");
    }
  }

  /** The documented timings, on the system ticker, beating on a thread of {@code threads}. */
  public static WriterLiveness standard(ThreadFactory threads) {
    return new WriterLiveness(
        HEARTBEAT, WINDOW, EXPIRED, Ticker.SYSTEM, Pacemaker.onThreadOf(threads));
  }

  /** Runs a heartbeat; tests beat by hand. */
  @FunctionalInterface
  public interface Pacemaker {

    /**
     * Starts calling {@code beat} every {@code interval}.
     *
     * @return stops the beating; idempotent
     */
    Runnable start(Duration interval, Runnable beat);

    /** Beats on a thread of {@code threads}, named {@code sf2loki-state-heartbeat}. */
    static Pacemaker onThreadOf(ThreadFactory threads) {
      return (interval, beat) -> {
        StopTrigger stop = new StopTrigger();
        Thread thread =
            threads.newThread(
                () -> {
                  try {
                    while (!stop.awaitStop(interval)) {
                      beat.run();
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
        thread.setName("sf2loki-state-heartbeat");
        thread.start();
        return stop::requestStop;
      };
    }
  }
}
