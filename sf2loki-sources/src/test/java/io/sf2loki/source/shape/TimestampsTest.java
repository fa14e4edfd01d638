package io.sf2loki.source.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimestampsTest {

  private static final Instant T = Instant.parse("2026-06-30T00:59:59.123Z");

  @Test
  void acceptsEveryPayloadForm() {
    assertThat(Timestamps.parse("2026-06-30T00:59:59.123Z")).contains(T);
    assertThat(Timestamps.parse("2026-06-30T00:59:59.123+0000")).contains(T);
    assertThat(Timestamps.parse("2026-06-30T02:59:59.123+02:00")).contains(T);
    assertThat(Timestamps.parse("20260630005959.123")).contains(T);
    assertThat(Timestamps.parse(Long.toString(T.toEpochMilli()))).contains(T);
    assertThat(Timestamps.parse("2026-06-30T00:59:59.123")).contains(T);
  }

  @Test
  void rejectsGarbage() {
    assertThat(Timestamps.parse("yesterday")).isEmpty();
    assertThat(Timestamps.parse("")).isEmpty();
    assertThat(Timestamps.parse(null)).isEmpty();
  }

  @Test
  void soqlLiteralIsUtcWithMilliseconds() {
    assertThat(Timestamps.soqlLiteral(Instant.parse("2026-06-30T01:00:00Z")))
        .isEqualTo("2026-06-30T01:00:00.000Z");
  }
}
