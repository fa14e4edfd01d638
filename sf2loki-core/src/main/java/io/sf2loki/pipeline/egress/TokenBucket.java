package io.sf2loki.pipeline.egress;

import io.sf2loki.spi.Ticker;
import java.time.Duration;

/**
 * A token bucket on the monotonic ticker: refills at {@code rate} per second up to one second of
 * rate, starts full. A take never waits for more than the capacity, but charges all it takes, so
 * the balance may go negative and a large batch paces the ones after it: over any long window the
 * amount taken stays within rate × window + capacity. Not thread-safe (one lane's delivery thread).
 */
final class TokenBucket {

  private final double rate;
  private final Ticker ticker;
  private double balance;
  private long updated;

  /**
   * @param rate units per second, positive
   */
  TokenBucket(long rate, Ticker ticker) {
    if (rate <= 0) {
      throw new IllegalArgumentException("rate must be positive: " + rate);
    }
    this.rate = rate;
    this.ticker = ticker;
    this.balance = rate;
    this.updated = ticker.nanoTime();
  }

  /**
   * How long to wait before {@code amount} may go: zero when the bucket holds {@code min(amount,
   * capacity)}. Charges {@code amount} whether or not a wait is due.
   */
  Duration take(long amount) {
    refill();
    double needed = Math.min(amount, rate);
    double shortfall = needed - balance;
    balance -= amount;
    if (shortfall <= 0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos((long) Math.ceil(shortfall / rate * 1e9));
  }

  private void refill() {
    long now = ticker.nanoTime();
    balance = Math.min(rate, balance + (now - updated) / 1e9 * rate);
    updated = now;
  }
}
