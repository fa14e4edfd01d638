package io.sf2loki.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.FailureClass;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The failures in a row, the waits between them and when a permanent one gives up. */
class FailureStreakTest {

  private static final FailurePolicy POLICY =
      new FailurePolicy(3, Duration.ofSeconds(1), Duration.ofMinutes(1));
  private static final FailureClass TRANSIENT =
      FailureClass.transientFailure("store_unavailable", "s3://b/k");
  private static final FailureClass PERMANENT =
      FailureClass.permanent("store_access_denied", "s3://b/k", "fix it");

  private final FailureStreak streak = new FailureStreak(POLICY, new Random(7));

  private FailureStreak.BackOff backOff(FailureClass failure) {
    return (FailureStreak.BackOff) streak.failed(failure);
  }

  @Test
  void waitsGrowExponentiallyWithJitterUpToTheCap() {
    List<Duration> waits = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      waits.add(backOff(TRANSIENT).pause());
    }

    for (int n = 0; n < waits.size(); n++) {
      long ceiling = Math.min(60, 1L << Math.min(n, 10));
      assertThat(waits.get(n)).isBetween(Duration.ofMillis(500), Duration.ofSeconds(ceiling));
    }
    assertThat(waits.subList(8, 12))
        .allSatisfy(w -> assertThat(w).isGreaterThan(Duration.ofSeconds(2)));
    assertThat(waits).doesNotHaveDuplicates();
  }

  @Test
  void transientFailuresNeverGiveUp() {
    for (int i = 1; i <= 50; i++) {
      assertThat(backOff(TRANSIENT).failures()).isEqualTo(i);
    }
  }

  @Test
  void aPermanentFailureGivesUpAtItsLastAttempt() {
    assertThat(backOff(PERMANENT).attempt()).isEqualTo(1);
    assertThat(backOff(TRANSIENT).attempt()).as("a transient one is no attempt").isZero();
    assertThat(backOff(PERMANENT).attempt()).isEqualTo(2);

    assertThat(streak.failed(PERMANENT)).isEqualTo(new FailureStreak.GiveUp(3));
  }

  @Test
  void aTermThatLedForTheLongestWaitEndsTheStreak() {
    backOff(PERMANENT);
    backOff(PERMANENT);

    streak.termEnded(Duration.ofMinutes(1));

    FailureStreak.BackOff again = backOff(PERMANENT);
    assertThat(again.attempt()).isEqualTo(1);
    assertThat(again.failures()).isEqualTo(1);
    assertThat(again.pause()).isLessThanOrEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aShorterTermKeepsTheStreak() {
    backOff(PERMANENT);
    backOff(PERMANENT);

    streak.termEnded(Duration.ofSeconds(59));

    assertThat(streak.failed(PERMANENT)).isEqualTo(new FailureStreak.GiveUp(3));
  }
}
