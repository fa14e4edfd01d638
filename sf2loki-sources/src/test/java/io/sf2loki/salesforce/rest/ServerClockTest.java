package io.sf2loki.salesforce.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ServerClockTest {

  private static final Instant LOCAL = Instant.parse("2026-07-01T12:00:00Z");
  private final ServerClock clock = new ServerClock(Clock.fixed(LOCAL, ZoneOffset.UTC));

  @Test
  void withoutASampleItIsTheLocalClock() {
    assertThat(clock.now()).isEqualTo(LOCAL);
    assertThat(clock.get()).isEqualTo(LOCAL);
  }

  @Test
  void skewOfThirtySecondsOrLessIsNoise() {
    clock.accept(LOCAL.plusSeconds(30));
    assertThat(clock.appliedSkew()).isZero();
    assertThat(clock.now()).isEqualTo(LOCAL);
  }

  @Test
  void largerSkewIsAppliedInEitherDirection() {
    clock.accept(LOCAL.plusSeconds(45));
    assertThat(clock.now()).isEqualTo(LOCAL.plusSeconds(45));
    clock.accept(LOCAL.minus(Duration.ofMinutes(5)));
    assertThat(clock.appliedSkew()).isEqualTo(Duration.ofMinutes(-5));
    assertThat(clock.get()).isEqualTo(LOCAL.minus(Duration.ofMinutes(5)));
  }

  @Test
  void theLatestSampleWins() {
    clock.accept(LOCAL.plusSeconds(120));
    clock.accept(LOCAL.plusSeconds(1));
    assertThat(clock.now()).isEqualTo(LOCAL);
  }

  @Test
  void theLastSampleIsReportedAsTheSkewGaugeOfItsSource() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ServerClock reported =
        new ServerClock(Clock.fixed(LOCAL, ZoneOffset.UTC), registry, "eventlogfile");
    reported.accept(LOCAL.plusSeconds(1200));
    assertThat(
            registry
                .get("sf2loki_salesforce_clock_skew_seconds")
                .tag("source", "eventlogfile")
                .gauge()
                .value())
        .isEqualTo(1200.0);
  }

  @Test
  void aNewRunsClockReplacesThePreviousRunsGauge() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new ServerClock(Clock.fixed(LOCAL, ZoneOffset.UTC), registry, "apexlog")
        .accept(LOCAL.plusSeconds(100));
    ServerClock next = new ServerClock(Clock.fixed(LOCAL, ZoneOffset.UTC), registry, "apexlog");
    next.accept(LOCAL.minusSeconds(40));
    assertThat(registry.get("sf2loki_salesforce_clock_skew_seconds").gauge().value())
        .isEqualTo(-40.0);
  }
}
