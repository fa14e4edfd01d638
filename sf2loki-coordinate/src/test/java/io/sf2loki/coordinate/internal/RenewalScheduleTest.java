package io.sf2loki.coordinate.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The leader's renewal cadence at the defaults: renew_interval 10 s, deadline 20 s out. */
class RenewalScheduleTest {

  private static final long S = 1_000_000_000L;

  private final AtomicLong now = new AtomicLong();
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final RenewalSchedule schedule =
      new RenewalSchedule(Duration.ofSeconds(10), now::get, metrics);

  @Test
  void whileRenewalsSucceedTheNextIsOneRenewIntervalAway() {
    now.set(3 * S);
    schedule.renewed(23 * S);

    assertThat(schedule.nextNanos()).isEqualTo(13 * S);
  }

  @Test
  void failedRenewalsAreRetriedAQuarterIntervalApartTheLastAMarginBeforeTheDeadline() {
    long deadline = 20 * S;
    now.set(10 * S);
    assertThat(schedule.retry(deadline)).contains(Duration.ofMillis(2500));
    now.set(schedule.nextNanos());
    assertThat(schedule.retry(deadline)).contains(Duration.ofMillis(2500));
    now.set(schedule.nextNanos());
    assertThat(schedule.retry(deadline)).contains(Duration.ofMillis(2500));
    now.set(schedule.nextNanos());
    assertThat(schedule.retry(deadline)).contains(Duration.ofMillis(1875));

    assertThat(schedule.nextNanos()).isEqualTo(deadline - schedule.margin().toNanos());
    assertThat(schedule.margin()).isEqualTo(Duration.ofMillis(625));
  }

  @Test
  void noRetryIsPlannedOnceTheLastHasFailed() {
    long deadline = 20 * S;
    now.set(deadline - schedule.margin().toNanos() + 1_000_000);

    assertThat(schedule.retry(deadline)).isEmpty();
  }

  @Test
  void everyFailedRenewalIsCounted() {
    schedule.retry(20 * S);
    schedule.retry(0);

    assertThat(metrics.get("sf2loki_lease_renewal_failures").counter().count()).isEqualTo(2);
  }

  @Test
  void aStepIsLateOnlyPastItsDeadline() {
    now.set(20 * S);
    assertThat(schedule.lateFor(20 * S)).isEmpty();

    now.set(20 * S + 1_250_000_000L);
    assertThat(schedule.lateFor(20 * S)).contains(Duration.ofMillis(1250));
    assertThat(RenewalSchedule.startedLate("the renewal", Duration.ofMillis(1250), "its deadline"))
        .isEqualTo(
            "the renewal started 1250 ms after its deadline (the process was paused or starved?)");
  }
}
