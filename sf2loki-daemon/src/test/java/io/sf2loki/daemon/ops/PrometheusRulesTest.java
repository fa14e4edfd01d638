package io.sf2loki.daemon.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.daemon.MetricsReference;
import io.sf2loki.testkit.tools.ToolRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/prometheus: the rules load in Prometheus ({@code promtool check rules}), their unit tests
 * pass ({@code promtool test rules}) with a firing and a quiet case for every alert, every alert
 * says how bad it is and where its runbook is, and every series they read exists.
 */
class PrometheusRulesTest {

  static final Path ALERTS_DOC = DeployFiles.OBSERVABILITY.resolve("alerts.md");

  static List<Path> ruleFiles;
  static List<RuleFile> rules;

  @BeforeAll
  static void read() throws Exception {
    ruleFiles = DeployFiles.list(DeployFiles.PROMETHEUS, ".rules.yaml");
    rules = RuleFile.readAll(ruleFiles);
  }

  @Test
  void everyRulesFileLoadsInPrometheus() throws Exception {
    ToolRun check = PromTool.checkRules(ruleFiles);

    assertThat(check.succeeded()).as(check.describe()).isTrue();
  }

  @Test
  void theRulesUnitTestsPassWithPromtool() throws Exception {
    List<String> args = new ArrayList<>(List.of("test", "rules"));
    DeployFiles.list(DeployFiles.PROMETHEUS_TESTS, ".test.yaml")
        .forEach(f -> args.add(f.getFileName().toString()));

    ToolRun test = PromTool.run(DeployFiles.PROMETHEUS_TESTS, "", args);

    assertThat(test.succeeded()).as(test.describe()).isTrue();
  }

  @Test
  void everyAlertHasAFiringAndAQuietUnitTestCase() throws Exception {
    Map<String, Set<String>> cases = new TreeMap<>();
    for (Path file : DeployFiles.list(DeployFiles.PROMETHEUS_TESTS, ".test.yaml")) {
      for (Map<String, Object> test : DeployFiles.maps(DeployFiles.yaml(file).get("tests"))) {
        for (Map<String, Object> c : DeployFiles.maps(test.get("alert_rule_test"))) {
          String kind = DeployFiles.maps(c.get("exp_alerts")).isEmpty() ? "quiet" : "firing";
          cases.computeIfAbsent((String) c.get("alertname"), a -> new TreeSet<>()).add(kind);
        }
      }
    }
    Map<String, Set<String>> expected = new TreeMap<>();
    Map<String, Set<String>> actual = new TreeMap<>();
    for (RuleFile r : rules) {
      if (r.isAlert()) {
        expected.put(r.alert(), Set.of("firing", "quiet"));
        actual.put(r.alert(), cases.getOrDefault(r.alert(), Set.of()));
      }
    }

    assertThat(actual).isEqualTo(expected);
    assertThat(cases.keySet())
        .as("test cases of alerts no rule defines")
        .isEqualTo(actual.keySet());
  }

  @Test
  void everyAlertHasASeverityASummaryADescriptionAndARunbookInTheAlertsPage() throws Exception {
    Set<String> anchors = DocPages.anchors(ALERTS_DOC);
    List<String> problems = new ArrayList<>();
    rules.stream()
        .filter(RuleFile::isAlert)
        .forEach(r -> problems.addAll(r.alertProblems(ALERTS_DOC, anchors)));

    assertThat(problems).isEmpty();
  }

  @Test
  void theAlertsPageDescribesExactlyTheAlertsTheRulesDefine() throws Exception {
    Set<String> alerts = new TreeSet<>();
    rules.stream().filter(RuleFile::isAlert).forEach(r -> alerts.add(r.alert()));

    assertThat(DocPages.sectionTitles(ALERTS_DOC)).isEqualTo(alerts);
  }

  @Test
  void everySeriesTheRulesReadIsDocumentedOrRecordedHere() throws Exception {
    Set<String> documented = MetricsReference.documented();
    Set<String> recordedHere = new TreeSet<>();
    rules.stream().filter(r -> !r.isAlert()).forEach(r -> recordedHere.add(r.record()));
    List<String> unknown = new ArrayList<>();
    for (RuleFile r : rules) {
      PromQlNames.metrics(r.expr()).stream()
          .filter(n -> !PromQlNames.isDocumented(n, documented))
          .forEach(n -> unknown.add(r + " reads " + n + ", not in " + MetricsReference.DOC));
      PromQlNames.recorded(r.expr()).stream()
          .filter(n -> !recordedHere.contains(n))
          .forEach(n -> unknown.add(r + " reads " + n + ", which no rule records"));
    }

    assertThat(unknown).isEmpty();
  }
}
