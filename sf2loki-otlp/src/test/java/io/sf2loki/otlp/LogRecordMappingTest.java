package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogRecordMappingTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "trace, 1",
    "debug, 5",
    "info, 9",
    "INFO, 9",
    "warn, 13",
    "warning, 13",
    "error, 17",
    "fatal, 21",
    "critical, 21",
    "verbose, 0"
  })
  void aLevelIsTheFirstSeverityNumberOfItsRange(String level, int number) {
    assertThat(LogRecordMapping.severityNumber(level)).isEqualTo(number);
  }

  @ParameterizedTest
  @CsvSource({
    "http://c:4318, http://c:4318/v1/logs",
    "http://loki:3100/otlp/, http://loki:3100/otlp/v1/logs",
    "http://c:4318/v1/logs, http://c:4318/v1/logs"
  })
  void theLogsPathIsAppendedToABaseUrl(String given, String used) {
    assertThat(OtlpSinkConfig.withLogsPath(java.net.URI.create(given))).hasToString(used);
  }
}
