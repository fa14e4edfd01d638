package io.sf2loki.daemon.logging;

import io.sf2loki.config.Durations;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the {@link MetricsSummary} line at INFO every {@code interval} until the stop signal fires,
 * each labelled with the time that really passed since the previous one (on the injected ticker).
 */
public final class SummaryLoop implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(SummaryLoop.class);

  private final MetricsSummary summary;
  private final Duration interval;
  private final Ticker ticker;
  private final StopSignal stop;

  /**
   * @param interval positive: the launcher starts no loop when {@code service.log_summary_interval}
   *     is 0
   */
  public SummaryLoop(MetricsSummary summary, Duration interval, Ticker ticker, StopSignal stop) {
    this.summary = Objects.requireNonNull(summary, "summary");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(
          "a summary interval is positive: " + Durations.format(interval));
    }
    this.interval = interval;
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.stop = Objects.requireNonNull(stop, "stop");
  }

  @Override
  public void run() {
    long last = ticker.nanoTime();
    try {
      while (!stop.awaitStop(interval)) {
        long now = ticker.nanoTime();
        // rounded to whole seconds: the line reads "in the last 30s", not "30004ms"
        Duration elapsed = Duration.ofSeconds(Math.round((now - last) / 1e9));
        last = now;
        summary.next(elapsed).ifPresent(LOG::info);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the process is ending
    }
  }
}
