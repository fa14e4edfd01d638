package io.sf2loki.pipeline.egress;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

  private final AtomicLong nanos = new AtomicLong();
  private final TokenBucket bucket = new TokenBucket(1000, nanos::get);

  @Test
  void aFullBucketLetsOneSecondOfRateGoAtOnce() {
    assertThat(bucket.take(1000)).isZero();
    assertThat(bucket.take(1)).isPositive();
  }

  @Test
  void aTakeLargerThanTheCapacityWaitsOnlyForTheCapacityButPacesTheNextOne() {
    bucket.take(1000); // empty now

    Duration first = bucket.take(5000);
    nanos.addAndGet(first.toNanos());
    Duration second = bucket.take(1);

    assertThat(first).isEqualTo(Duration.ofSeconds(1));
    assertThat(second).isGreaterThanOrEqualTo(Duration.ofSeconds(4));
  }

  @Test
  void theBucketRefillsAtItsRateUpToItsCapacity() {
    bucket.take(1000);
    nanos.addAndGet(Duration.ofMillis(500).toNanos());
    assertThat(bucket.take(500)).isZero();
    nanos.addAndGet(Duration.ofHours(1).toNanos());
    assertThat(bucket.take(1000)).isZero();
    assertThat(bucket.take(1)).isPositive();
  }

  @Test
  void overAnyRunOfTakesTheAmountStaysWithinRateTimesElapsedPlusOneCapacity() {
    long taken = 0;
    long start = nanos.get();
    for (int i = 0; i < 10_000; i++) {
      long amount = 1 + (i * 7919L) % 2500; // some above the capacity
      Duration wait = bucket.take(amount);
      nanos.addAndGet(wait.toNanos()); // the caller waits what it is told, then sends
      taken += amount;
      double elapsed = (nanos.get() - start) / 1e9;
      // what was sent up to the last take may exceed rate x elapsed by the burst and that take
      assertThat((double) taken - amount).isLessThanOrEqualTo(1000 * elapsed + 1000 + 1e-6);
    }
  }
}
