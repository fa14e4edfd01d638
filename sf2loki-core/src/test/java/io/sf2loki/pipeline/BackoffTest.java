package io.sf2loki.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class BackoffTest {

  final RandomGenerator random = new SplittableRandom(42);
  final Backoff backoff =
      Backoff.exponential(Duration.ofSeconds(1), Duration.ofSeconds(30), random);

  @Test
  void ceilingDoublesPerAttemptAndTheWaitIsDrawnBetweenHalfTheMinimumAndIt() {
    for (int attempt = 1; attempt <= 5; attempt++) {
      long ceiling = 1_000L << (attempt - 1);
      for (int i = 0; i < 50; i++) {
        long ms = backoff.delay(attempt).toMillis();
        assertThat(ms).isBetween(500L, ceiling);
      }
    }
  }

  @Test
  void theFirstRetryIsJitteredToo() {
    assertThat(
            java.util.stream.IntStream.range(0, 50)
                .mapToObj(i -> backoff.delay(1))
                .distinct()
                .count())
        .isGreaterThan(1);
  }

  @Test
  void fullJitterUsesTheLowerPartOfTheIntervalToo() {
    assertThat(
            java.util.stream.IntStream.range(0, 200)
                .mapToLong(i -> backoff.delay(6).toMillis())
                .min()
                .orElseThrow())
        .isLessThan(15_000);
  }

  @Test
  void waitNeverExceedsTheMaximumEvenAfterManyAttempts() {
    for (int attempt = 6; attempt < 200; attempt++) {
      assertThat(backoff.delay(attempt)).isBetween(Duration.ofMillis(500), Duration.ofSeconds(30));
    }
  }

  @Test
  void jitterSpreadsWaits() {
    assertThat(
            java.util.stream.IntStream.range(0, 20)
                .mapToObj(i -> backoff.delay(4))
                .distinct()
                .count())
        .isGreaterThan(5);
  }

  @Test
  void retryAfterRaisesTheWaitUpToTheCap() {
    Duration own = Duration.ofSeconds(2);

    assertThat(Backoff.honouring(own, Duration.ofSeconds(10), Duration.ofSeconds(60)))
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(Backoff.honouring(own, Duration.ofSeconds(600), Duration.ofSeconds(60)))
        .isEqualTo(Duration.ofSeconds(60));
    assertThat(Backoff.honouring(own, Duration.ofSeconds(1), Duration.ofSeconds(60)))
        .isEqualTo(own);
  }

  @Test
  void plusHalfNeverWaitsLessThanTheDoubledDelayNorMoreThanHalfAgain() {
    Backoff reconnect =
        Backoff.exponentialPlusHalf(Duration.ofSeconds(1), Duration.ofSeconds(8), random);
    for (int attempt = 1; attempt <= 6; attempt++) {
      long scheduled = Math.min(8_000L, 1_000L << (attempt - 1));
      for (int i = 0; i < 50; i++) {
        assertThat(reconnect.delay(attempt).toMillis())
            .isBetween(scheduled, scheduled + scheduled / 2);
      }
    }
  }

  @Test
  void noneNeverWaits() {
    assertThat(Backoff.NONE.delay(7)).isZero();
  }
}
