package io.sf2loki.pipeline.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DailyUsageTest {

  @Test
  void theStoredFormIsThePythonOriginalsAndReadsBack() {
    DailyUsage usage = new DailyUsage(LocalDate.of(2026, 12, 2), 1234);

    assertThat(usage.toJson()).isEqualTo("{\"date\":\"2026-12-02\",\"bytes\":1234}");
    assertThat(DailyUsage.parse(usage.toJson())).isEqualTo(usage);
    assertThat(DailyUsage.parse("{\"date\": \"2026-12-02\", \"bytes\": 1234}")).isEqualTo(usage);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "not json",
        "[]",
        "{\"date\":\"2026-12-02\"}",
        "{\"bytes\":5}",
        "{\"date\":\"02/12/2026\",\"bytes\":5}",
        "{\"date\":\"2026-12-02\",\"bytes\":-1}",
        "{\"date\":\"2026-12-02\",\"bytes\":\"5\"}",
        "{\"date\":\"2026-12-02\",\"bytes\":1.5}"
      })
  void aMalformedValueIsRefusedWithWhatIsWrong(String value) {
    assertThatThrownBy(() -> DailyUsage.parse(value))
        .isInstanceOf(IllegalArgumentException.class)
        .message()
        .isNotBlank();
  }
}
