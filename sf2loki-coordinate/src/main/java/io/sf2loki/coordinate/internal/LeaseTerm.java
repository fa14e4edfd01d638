package io.sf2loki.coordinate.internal;

import io.sf2loki.spi.Term;
import io.sf2loki.spi.Ticker;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A term granted by a lease coordinator. It is current while the coordinator holds it <em>and</em>
 * the last confirmed renewal is younger than the lease's duration on our monotonic clock: a leader
 * that pauses past its lease stops being current by itself, before any standby can claim the lease
 * (a standby waits at least one full duration after the write that started our window).
 */
public final class LeaseTerm implements Term {

  private final String holder;
  private final long epoch;
  private final Ticker ticker;
  private final AtomicBoolean held = new AtomicBoolean(true);
  private volatile long validUntilNanos;
  private volatile String lossReason;

  /**
   * @param validUntilNanos the {@link Ticker} time at which the term lapses unless extended
   */
  public LeaseTerm(String holder, long epoch, Ticker ticker, long validUntilNanos) {
    this.holder = Objects.requireNonNull(holder, "holder");
    this.epoch = epoch;
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.validUntilNanos = validUntilNanos;
  }

  @Override
  public long epoch() {
    return epoch;
  }

  @Override
  public String holder() {
    return holder;
  }

  @Override
  public boolean isCurrent() {
    return held.get() && !hasLapsed();
  }

  /** True once the validity window has passed on the monotonic clock. */
  public boolean hasLapsed() {
    return ticker.nanoTime() - validUntilNanos >= 0;
  }

  /**
   * Extends the window to {@code untilNanos} after a confirmed renewal. A term that has already
   * lapsed is never revived: a standby may own the lease by now.
   *
   * @return false when the term had lapsed (or was revoked) and was not extended
   */
  public synchronized boolean extendUntil(long untilNanos) {
    if (!isCurrent()) {
      return false;
    }
    if (untilNanos - validUntilNanos > 0) {
      validUntilNanos = untilNanos;
    }
    return true;
  }

  /** The coordinator stopped believing it leads; irreversible. */
  public void revoke() {
    held.set(false);
  }

  /** The coordinator lost or gave up the lease, for {@code reason}; irreversible. */
  public void revoke(String reason) {
    lossReason = Objects.requireNonNull(reason, "reason");
    revoke();
  }

  @Override
  public Optional<String> lossReason() {
    return Optional.ofNullable(lossReason);
  }

  /** True until {@link #revoke()}, regardless of the validity window. */
  public boolean isHeld() {
    return held.get();
  }

  @Override
  public String toString() {
    return "LeaseTerm[" + describe() + (isCurrent() ? ", current]" : ", ended]");
  }
}
