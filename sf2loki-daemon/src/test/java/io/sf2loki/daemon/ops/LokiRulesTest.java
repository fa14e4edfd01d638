package io.sf2loki.daemon.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/loki: the ruler's rules parse with Grafana's LogQL grammar, name only what sf2loki ships,
 * look back far enough for their sources' late entries (event time), and each has its section in
 * docs/observability/loki-rules.md.
 */
class LokiRulesTest {

  static final Pattern RUNBOOK =
      Pattern.compile("^https://sf2loki\\.example\\.com/docs/observability/loki-rules\\.md#(.+)$");
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
      if (!PrometheusRulesTest.SEVERITIES.contains(String.valueOf(r.labels().get("severity")))) {
        problems.add(r + ": severity " + r.labels().get("severity"));
      }
      if (r.annotation("summary").isBlank() || r.annotation("description").isBlank()) {
        problems.add(r + ": a summary and a description are required");
      }
      Matcher runbook = RUNBOOK.matcher(r.annotation("runbook_url"));
      if (!runbook.matches()
          || !runbook.group(1).equals(DocPages.slug(r.alert()))
          || !anchors.contains(runbook.group(1))) {
        problems.add(r + ": runbook_url must be the section '### " + r.alert() + "' of " + PAGE);
      }
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
