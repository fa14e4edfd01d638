package io.sf2loki.testkit.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.ScaledTimeout;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@ScaledTimeout(seconds = 10)
class LokiLimitsTest {

  final LokiLimits d = LokiLimits.defaults();

  @Test
  void durationCopiesChangeOnlyTheirOwnLimit() {
    Duration x = Duration.ofMinutes(7);

    assertThat(d.withOutOfOrderWindow(x))
        .isEqualTo(copy(d.rejectOldSamplesMaxAge(), d.creationGracePeriod(), x));
    assertThat(d.withCreationGracePeriod(x))
        .isEqualTo(copy(d.rejectOldSamplesMaxAge(), x, d.outOfOrderWindow()));
    assertThat(d.withRejectOldSamplesMaxAge(x))
        .isEqualTo(copy(x, d.creationGracePeriod(), d.outOfOrderWindow()));
  }

  private LokiLimits copy(Duration maxAge, Duration grace, Duration window) {
    return new LokiLimits(
        d.maxLineBytes(),
        d.maxLabelNamesPerSeries(),
        d.maxLabelNameLength(),
        d.maxLabelValueLength(),
        d.maxStructuredMetadataBytes(),
        d.maxStructuredMetadataEntries(),
        maxAge,
        grace,
        window,
        d.maxRequestBytes());
  }
}
