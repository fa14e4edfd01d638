package io.sf2loki.salesforce.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.salesforce.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ApiBudgetTest {

  private static final Duration INTERVAL = Duration.ofMinutes(10);
  private final MutableClock clock = new MutableClock(Instant.parse("2026-06-30T00:00:00Z"));
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final ApiBudget budget =
      new ApiBudget(
          new ApiBudgetConfig(0.5, false, Duration.ofMinutes(5), Duration.ofMinutes(1)),
          clock,
          metrics,
          new Random(1));

  /** {@code n} answers of an org whose daily limit is 1000: an allowance of 500 calls. */
  private void calls(int n) {
    for (int i = 0; i < n; i++) {
      budget.answered(200, Optional.of("api-usage=" + i + "/1000"));
    }
  }

  private double gauge(String name) {
    return metrics.get(name).gauge().value();
  }

  @Test
  void underEightyPercentOfTheShareThePaceIsNormal() {
    calls(399);

    assertThat(budget.pace()).isEqualTo(new Pace.Normal());
    assertThat(gauge("sf2loki_salesforce_api_budget_state")).isZero();
  }

  @Test
  void nearTheShareThePollIntervalStretches() {
    calls(450); // 90 % of the allowance

    Pace pace = budget.pace();

    assertThat(pace.admits()).isTrue();
    assertThat(pace.stretch(INTERVAL)).isEqualTo(Duration.ofMinutes(20));
    assertThat(gauge("sf2loki_salesforce_api_budget_state")).isEqualTo(1);
    assertThat(gauge("sf2loki_salesforce_api_budget_used")).isEqualTo(450);
    assertThat(gauge("sf2loki_salesforce_api_budget_allowance")).isEqualTo(500);
  }

  @Test
  void aSpentSharePausesUntilTheCallsLeaveTheWindow() {
    calls(500);

    Pace pace = budget.pace();

    assertThat(pace.admits()).isFalse();
    assertThat(pace.stretch(INTERVAL)).isEqualTo(Duration.ofHours(24));
    assertThat(gauge("sf2loki_salesforce_api_budget_state")).isEqualTo(2);
  }

  @Test
  void theSlowDownReleasesAsTheWindowFrees() {
    calls(450);
    assertThat(budget.pace()).isInstanceOf(Pace.Slowed.class);

    clock.advance(Duration.ofHours(24));

    assertThat(budget.pace()).isEqualTo(new Pace.Normal());
    assertThat(gauge("sf2loki_salesforce_api_budget_state")).isZero();
  }

  @Test
  void withoutAKnownLimitThePaceIsNormal() {
    for (int i = 0; i < 10_000; i++) {
      budget.answered(200, Optional.empty());
    }

    assertThat(budget.pace()).isEqualTo(new Pace.Normal());
  }

  @Test
  void requestLimitExceededPausesForTheBackoff() {
    budget.throttled();

    Pace pace = budget.pace();

    assertThat(pace).isInstanceOf(Pace.Paused.class);
    assertThat(pace.stretch(INTERVAL)).isBetween(Duration.ofMinutes(1), Duration.ofSeconds(90));
    clock.advance(Duration.ofSeconds(91));
    assertThat(budget.pace()).isEqualTo(new Pace.Normal());
  }

  @Test
  void repeatedThrottlesBackOffLonger() {
    budget.throttled();
    clock.advance(Duration.ofMinutes(2));

    budget.throttled();

    assertThat(budget.pace().stretch(INTERVAL)).isGreaterThanOrEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void aSuccessfulAnswerResetsTheThrottleBackoff() {
    budget.throttled();
    clock.advance(Duration.ofMinutes(2));
    budget.answered(200, Optional.empty());

    budget.throttled();

    assertThat(budget.pace().stretch(INTERVAL)).isLessThanOrEqualTo(Duration.ofSeconds(90));
  }

  @Test
  void theHeaderFeedsTheUsageGauges() {
    budget.answered(200, Optional.of("api-usage=18/5000"));

    assertThat(gauge("sf2loki_salesforce_api_usage_used")).isEqualTo(18);
    assertThat(gauge("sf2loki_salesforce_api_usage_limit")).isEqualTo(5000);
  }

  @Test
  void malformedHeadersAreCountedAndChangeNothing() {
    budget.answered(200, Optional.of("api-usage=18/5000"));
    budget.answered(200, Optional.of("garbage"));
    budget.answered(200, Optional.of("api-usage=x/y"));

    assertThat(metrics.get("sf2loki_salesforce_limit_info_errors").counter().count()).isEqualTo(2);
    assertThat(gauge("sf2loki_salesforce_api_usage_used")).isEqualTo(18);
  }

  @Test
  void anUnmeteredBudgetNeverSlowsAnyone() {
    ApiBudget unmetered = ApiBudget.unmetered();
    unmetered.throttled();

    assertThat(unmetered.pace()).isEqualTo(new Pace.Normal());
  }
}
