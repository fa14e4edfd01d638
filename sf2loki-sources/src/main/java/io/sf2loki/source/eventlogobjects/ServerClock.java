package io.sf2loki.source.eventlogobjects;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Salesforce's clock as seen through the {@code Date} header of every REST response: the local
 * clock plus the last observed skew, applied only when it exceeds 30 s (header resolution and
 * latency make smaller values noise). Thread-safe.
 */
public final class ServerClock implements Consumer<Instant>, Supplier<Instant> {

  private static final Duration APPLY_ABOVE = Duration.ofSeconds(30);

  private final Clock local;
  private volatile Duration skew = Duration.ZERO;

  public ServerClock(Clock local) {
    this.local = local;
  }

  /** Records a server {@code Date}. */
  @Override
  public void accept(Instant serverDate) {
    skew = Duration.between(local.instant(), serverDate);
  }

  /** Now on Salesforce's clock. */
  @Override
  public Instant get() {
    Duration s = skew;
    return s.abs().compareTo(APPLY_ABOVE) > 0 ? local.instant().plus(s) : local.instant();
  }
}
