package io.sf2loki.source.eventlogfile;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salesforce's clock as seen through the {@code Date} headers of its responses. The skew is applied
 * to the settle, lookback and max-age comparisons only when it exceeds 30 s (below that a Date
 * header's one-second resolution and the request latency make it noise); beyond 60 s a WARN is
 * logged once. Thread-safe.
 */
final class ServerClock implements Consumer<Instant> {

  static final Duration APPLY_ABOVE = Duration.ofSeconds(30);
  static final Duration WARN_ABOVE = Duration.ofSeconds(60);
  private static final Logger LOG = LoggerFactory.getLogger(ServerClock.class);

  private final Clock clock;
  private final AtomicBoolean warned = new AtomicBoolean();
  private volatile Duration skew = Duration.ZERO;

  ServerClock(Clock clock) {
    this.clock = clock;
  }

  /** Records one {@code Date} header sample: skew = server time − local time. */
  @Override
  public void accept(Instant serverDate) {
    Duration s = Duration.between(clock.instant(), serverDate);
    skew = s;
    if (s.abs().compareTo(WARN_ABOVE) > 0 && warned.compareAndSet(false, true)) {
      LOG.warn(
          "Salesforce's clock differs from ours by {}s; settle, lookback and max-age use its"
              + " clock",
          s.toSeconds());
    }
  }

  /** The skew currently applied (zero unless above 30 s). */
  Duration appliedSkew() {
    Duration s = skew;
    return s.abs().compareTo(APPLY_ABOVE) > 0 ? s : Duration.ZERO;
  }

  /** Now on Salesforce's clock. */
  Instant now() {
    return clock.instant().plus(appliedSkew());
  }
}
