package io.sf2loki.daemon.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The LogQL checker, with Grafana's grammar, on expressions that keep or break its rules. */
class LogQlPolicyTest {

  private static final String FAILED_LOGINS =
      "sum by (USER_NAME, SOURCE_IP) (count_over_time({job=\"sf2loki\", source=\"eventlogfile\","
          + " event_type=\"Login\"} | json USER_NAME, SOURCE_IP, LOGIN_STATUS | LOGIN_STATUS !="
          + " \"LOGIN_NO_ERROR\" and level=\"warn\" [1h] offset 6h))";

  @Test
  void aQueryOfSf2lokisLabelsMetadataAndLoginFieldsKeepsThePolicy() throws Exception {
    assertThat(LogQlPolicy.violations(LogQl.parse(FAILED_LOGINS))).isEmpty();
  }

  @Test
  void aQueryThatDoesNotParseIsAViolation() throws Exception {
    assertThat(LogQlPolicy.violations(LogQl.parse("sum(count_over_time({job=\"sf2loki\"}[1h]")))
        .isNotEmpty()
        .allMatch(v -> v.contains("does not parse"));
  }

  @Test
  void aStreamLabelSf2lokiNeverSetsIsAViolation() throws Exception {
    assertThat(LogQlPolicy.violations(LogQl.parse("{job=\"sf2loki\", app=\"salesforce\"}")))
        .singleElement()
        .asString()
        .contains("selects on app");
  }

  @Test
  void aFieldTheEventTypeDoesNotHaveIsAViolation() throws Exception {
    String byUserName =
        "sum by (USER_NAME) (count_over_time({job=\"sf2loki\", event_type=\"ReportExport\"}"
            + " | json USER_NAME [1h]))";

    assertThat(LogQlPolicy.violations(LogQl.parse(byUserName)))
        .singleElement()
        .asString()
        .contains("extracts USER_NAME, which Salesforce does not fill in [ReportExport]");
  }

  @Test
  void aLabelNeitherSetNorExtractedIsAViolation() throws Exception {
    String query = "{job=\"sf2loki\", event_type=\"LoginEvent\"} | json Username | Status=\"x\"";

    assertThat(LogQlPolicy.violations(LogQl.parse(query)))
        .singleElement()
        .asString()
        .contains("reads Status");
  }

  @Test
  void anEventLogFileRuleOverTheLastHourNeverSeesItsRows() throws Exception {
    String atNow = FAILED_LOGINS.replace(" offset 6h", "");

    assertThat(LogQlPolicy.eventTimeViolations(LogQl.parse(atNow)))
        .singleElement()
        .asString()
        .contains("arrive up to PT6H");
    assertThat(LogQlPolicy.eventTimeViolations(LogQl.parse(FAILED_LOGINS))).isEmpty();
  }
}
