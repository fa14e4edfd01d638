package io.sf2loki.salesforce.rest;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salesforce's clock as seen through the {@code Date} header of every REST response: the local
 * clock plus the last observed skew. The skew is applied only when it exceeds 30 s (a Date header's
 * one-second resolution and the request latency make smaller values noise); beyond 60 s a WARN is
 * logged once, because settle windows, lookbacks and max ages then run on Salesforce's time, not
 * ours. Thread-safe: the {@link SalesforceRestClient} records samples from any request thread.
 */
public final class ServerClock implements Consumer<Instant>, Supplier<Instant> {

  static final Duration APPLY_ABOVE = Duration.ofSeconds(30);
  static final Duration WARN_ABOVE = Duration.ofSeconds(60);
  private static final Logger LOG = LoggerFactory.getLogger(ServerClock.class);

  private final Clock local;
  private final AtomicBoolean warned = new AtomicBoolean();
  private volatile Duration skew = Duration.ZERO;

  public ServerClock(Clock local) {
    this.local = local;
  }

  /** Records one {@code Date} header sample: skew = server time − local time. */
  @Override
  public void accept(Instant serverDate) {
    Duration s = Duration.between(local.instant(), serverDate);
    skew = s;
    if (s.abs().compareTo(WARN_ABOVE) > 0 && warned.compareAndSet(false, true)) {
      LOG.warn(
          "Salesforce's clock differs from ours by {}s; settle windows, lookbacks and max ages"
              + " use its clock",
          s.toSeconds());
    }
  }

  /** The skew currently applied (zero unless its size is above 30 s). */
  public Duration appliedSkew() {
    Duration s = skew;
    return s.abs().compareTo(APPLY_ABOVE) > 0 ? s : Duration.ZERO;
  }

  /** Salesforce's "now": the local clock plus the applied skew. */
  public Instant now() {
    return local.instant().plus(appliedSkew());
  }

  @Override
  public Instant get() {
    return now();
  }
}
