package io.sf2loki.cli.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PythonDurationsTest {

  @ParameterizedTest
  @CsvSource({
    "30s, 30s",
    "1h30m, 90m",
    "1.5h, 90m",
    "2w, 14d",
    "500ms, 500ms",
    "1m30s, 90s",
    "PT5M, 5m",
    "P1D, 1d",
    "01:02:03, 3723s",
    "'1d,01:00:00', 25h",
    "0s, 0s",
    "'${TTL}', '${TTL}'"
  })
  void pythonTextBecomesOneWholeUnitOfOurs(String python, String ours) {
    assertThat(PythonDurations.toConfigText(python)).contains(ours);
  }

  @org.junit.jupiter.api.Test
  void aYamlNumberIsSeconds() {
    assertThat(PythonDurations.toConfigText(30)).contains("30s");
    assertThat(PythonDurations.toConfigText(0.5)).contains("500ms");
    assertThat(PythonDurations.toConfigText(3600)).contains("1h");
  }

  @ParameterizedTest
  @ValueSource(strings = {"30", "1 h", "5 minutes", "", "1y"})
  void textPythonRefusesIsRefused(String python) {
    assertThat(PythonDurations.toConfigText(python)).isEmpty();
  }
}
