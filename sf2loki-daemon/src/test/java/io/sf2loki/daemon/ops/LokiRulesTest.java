package io.sf2loki.daemon.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/loki: the ruler's rules parse with Grafana's LogQL grammar, name only what sf2loki ships,
 * look back far enough for their sources' late entries (event time), and each has its section in
 * docs/observability/loki-rules.md.
 */
class LokiRulesTest {

  static final Path PAGE = DeployFiles.OBSERVABILITY.resolve("loki-rules.md");

  static List<RuleFile> rules;
  static List<LogQl.Parsed> parsed;

  @BeforeAll
  static void read() throws Exception {
    rules = RuleFile.readAll(DeployFiles.list(DeployFiles.LOKI, ".rules.yaml"));
    Map<String, String> expressions = new LinkedHashMap<>();
    rules.forEach(r -> expressions.put(r.toString(), r.expr()));
    parsed = LogQl.parse(expressions);
  }

  @Test
  void everyRuleParsesAndNamesOnlyLabelsMetadataAndFieldsSf2lokiShips() {
    List<String> violations = new ArrayList<>();
    parsed.forEach(p -> violations.addAll(LogQlPolicy.violations(p)));

    assertThat(violations).isEmpty();
  }

  @Test
  void everyRuleLooksBackPastTheArrivalOfItsSourcesEntries() {
    List<String> violations = new ArrayList<>();
    parsed.forEach(p -> violations.addAll(LogQlPolicy.eventTimeViolations(p)));

    assertThat(violations).isEmpty();
  }

  @Test
  void everyRuleIsAnAlertWithASeverityAnnotationsAndARunbookSection() throws Exception {
    Set<String> anchors = DocPages.anchors(PAGE);
    List<String> problems = new ArrayList<>();
    for (RuleFile r : rules) {
      if (!r.isAlert()) {
        problems.add(r + ": only alerting rules (a recording rule needs the ruler's remote write)");
        continue;
      }
      problems.addAll(r.alertProblems(PAGE, anchors));
    }

    assertThat(problems).isEmpty();
  }

  @Test
  void theLokiRulesPageDescribesExactlyTheRules() throws Exception {
    Set<String> alerts = new TreeSet<>();
    rules.forEach(r -> alerts.add(r.name()));

    assertThat(DocPages.sectionTitles(PAGE)).isEqualTo(alerts);
  }
}
