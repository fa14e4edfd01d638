package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

  final Clock clock = Clock.fixed(Instant.parse("2015-10-21T07:28:00Z"), ZoneOffset.UTC);

  @Test
  void deltaSecondsParse() {
    assertThat(RetryAfter.parse("120", clock)).contains(Duration.ofSeconds(120));
  }

  @Test
  void httpDateIsRelativeToTheClock() {
    assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:28:30 GMT", clock))
        .contains(Duration.ofSeconds(30));
  }

  @Test
  void pastDateMeansNoWait() {
    assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:00:00 GMT", clock)).contains(Duration.ZERO);
  }

  @Test
  void garbageAndAbsenceAreIgnored() {
    assertThat(RetryAfter.parse("soon", clock)).isEmpty();
    assertThat(RetryAfter.parse(null, clock)).isEmpty();
    assertThat(RetryAfter.parse("99999999999999999999999", clock)).isEmpty();
  }
}
