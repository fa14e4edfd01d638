package io.sf2loki.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class EventTimesTest {

  private static final Instant T = Instant.parse("2026-06-30T00:59:59.123Z");

  @Test
  void acceptsEveryPayloadForm() {
    assertThat(EventTimes.parse("2026-06-30T00:59:59.123Z")).contains(T);
    assertThat(EventTimes.parse("2026-06-30T00:59:59.123+0000")).contains(T);
    assertThat(EventTimes.parse("2026-06-30T02:59:59.123+02:00")).contains(T);
    assertThat(EventTimes.parse("20260630005959.123")).contains(T);
    assertThat(EventTimes.parse(Long.toString(T.toEpochMilli()))).contains(T);
    assertThat(EventTimes.parse(T.toEpochMilli())).contains(T);
    assertThat(EventTimes.parse("2026-06-30T00:59:59.123")).contains(T);
  }

  @Test
  void rejectsGarbage() {
    assertThat(EventTimes.parse("yesterday")).isEmpty();
    assertThat(EventTimes.parse("")).isEmpty();
    assertThat(EventTimes.parse(null)).isEmpty();
  }

  @Test
  void instantsBeforeTheEpochMapToZeroNanos() {
    assertThat(EventTimes.epochNanos(Instant.parse("1969-12-31T23:59:59Z"))).isZero();
    assertThat(EventTimes.epochNanos(T)).isEqualTo(T.toEpochMilli() * 1_000_000);
  }
}
