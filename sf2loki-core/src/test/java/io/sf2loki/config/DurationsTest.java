package io.sf2loki.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({
    "500ms, 500",
    "30s, 30000",
    "5m, 300000",
    "1h30m, 5400000",
    "2d, 172800000",
    "PT5M, 300000",
    "pt1s, 1000",
    "30, 30000",
    "0.5, 500",
    "1.5s, 1500"
  })
  void acceptsEveryDocumentedForm(String text, long millis) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "soon", "5 minutes", "10x", "P", "-5s", "1h-30m"})
  void rejectsAnythingElseNamingTheAcceptedForms(String text) {
    assertThatThrownBy(() -> Durations.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a duration")
        .hasMessageContaining("1h30m");
  }

  @ParameterizedTest
  @CsvSource({"1h30m", "500ms", "30s", "2d", "0s"})
  void formatRoundTripsThroughParse(String text) {
    assertThat(Durations.format(Durations.parse(text))).isEqualTo(text);
  }
}
