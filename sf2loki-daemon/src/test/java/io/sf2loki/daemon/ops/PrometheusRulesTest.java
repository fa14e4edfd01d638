package io.sf2loki.daemon.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.daemon.MetricsReference;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.tools.ToolRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/prometheus: the rules load in Prometheus ({@code promtool check rules}), their unit tests
 * pass ({@code promtool test rules}) with a firing and a quiet case for every alert, every alert
 * says how bad it is and where its runbook is, and every series they read exists.
 */
class PrometheusRulesTest {

  static final Path ALERTS_DOC = DeployFiles.OBSERVABILITY.resolve("alerts.md");

  /** The one alert about the whole deployment rather than an org: nothing is scraped at all. */
  static final String ABSENT_ALERT = "Sf2lokiAbsent";

  /** The documented command that points the runbook links at your docs. */
  static final Pattern SED = Pattern.compile("(?m)^sed -i .*\\\\\n.*$");

  static final String PLACEHOLDER = "https://sf2loki.example.com/";

  /** How a summary names the org: nothing without orgs, " (org emea)" with them. */
  static final String ORG_IN_SUMMARY = "{{ with $labels.org }} (org {{ . }}){{ end }}";

  static List<Path> ruleFiles;
  static List<RuleFile> rules;
  static Set<String> perProcess;

  @BeforeAll
  static void read() throws Exception {
    ruleFiles = DeployFiles.list(DeployFiles.PROMETHEUS, ".rules.yaml");
    rules = RuleFile.readAll(ruleFiles);
    perProcess = MetricsReference.perProcess();
  }

  /**
   * Whether {@code r} alerts on the per-process meters alone (the reference's shard balance
   * section): they carry no {@code org} label even with orgs, so the alert is about a replica or
   * the deployment, and an org in its cases or its summary would be made up.
   */
  static boolean onPerProcessMeters(RuleFile r) {
    Set<String> read = PromQlNames.metrics(r.expr());
    return !read.isEmpty() && perProcess.containsAll(read);
  }

  /** Whether {@code r} is about an org: every alert but {@link #ABSENT_ALERT} and those above. */
  static boolean aboutAnOrg(RuleFile r) {
    return r.isAlert() && !r.alert().equals(ABSENT_ALERT) && !onPerProcessMeters(r);
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
    for (AlertCase c : AlertCase.readAll(DeployFiles.PROMETHEUS_TESTS)) {
      cases.computeIfAbsent(c.alert(), a -> new TreeSet<>()).add(c.firing() ? "firing" : "quiet");
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

  /**
   * With {@code orgs} every series carries {@code org}: an alert about an org must fire for that
   * org alone (a test of two orgs, one of them bad, expecting alerts labelled with the bad one
   * only), and still fire for a single org (expected alerts without the label).
   */
  @Test
  void everyAlertAboutAnOrgFiresForTheBadOrgAloneAndStillWithoutOrgs() throws Exception {
    List<AlertCase> cases = AlertCase.readAll(DeployFiles.PROMETHEUS_TESTS);
    List<String> missing = new ArrayList<>();
    for (RuleFile r : rules) {
      if (!aboutAnOrg(r)) {
        continue;
      }
      List<AlertCase> firing = cases.stream().filter(c -> c.alert().equals(r.alert())).toList();
      boolean perOrg =
          firing.stream()
              .anyMatch(
                  c ->
                      c.inputOrgs().size() >= 2
                          && c.firingOrgs().size() == 1
                          && c.inputOrgs().containsAll(c.firingOrgs()));
      boolean singleOrg =
          firing.stream()
              .anyMatch(
                  c -> c.firing() && c.inputOrgs().isEmpty() && c.firingOrgs().equals(Set.of("")));
      if (!perOrg) {
        missing.add(r + ": no case of two orgs where it fires for one of them alone");
      }
      if (!singleOrg) {
        missing.add(r + ": no single-org case (series without org) where it fires");
      }
    }

    assertThat(missing).isEmpty();
  }

  /**
   * An alert on the per-process shard meters fires for a replica alone (series of one process) and
   * among several replicas (series of two processes or more), its cases carry no {@code org} (the
   * meters have none), and there is at least one such alert.
   */
  @Test
  void everyAlertOnPerProcessMetersFiresForOneReplicaAndAmongSeveral() throws Exception {
    List<AlertCase> cases = AlertCase.readAll(DeployFiles.PROMETHEUS_TESTS);
    List<RuleFile> alerts =
        rules.stream().filter(r -> r.isAlert() && onPerProcessMeters(r)).toList();
    List<String> missing = new ArrayList<>();
    for (RuleFile r : alerts) {
      List<AlertCase> own = cases.stream().filter(c -> c.alert().equals(r.alert())).toList();
      if (own.stream().noneMatch(c -> c.firing() && c.inputInstances().size() == 1)) {
        missing.add(r + ": no case of one replica where it fires");
      }
      if (own.stream().noneMatch(c -> c.firing() && c.inputInstances().size() >= 2)) {
        missing.add(r + ": no case of several replicas where it fires");
      }
      own.stream()
          .filter(
              c ->
                  !c.inputOrgs().isEmpty()
                      || !c.firingOrgs().equals(c.firing() ? Set.of("") : Set.of()))
          .forEach(c -> missing.add(c.test() + ": an org on a per-process meter"));
    }

    assertThat(alerts).as("alerts on " + perProcess).isNotEmpty();
    assertThat(missing).isEmpty();
  }

  @Test
  void everyAlertAboutAnOrgNamesTheOrgInItsSummary() {
    List<String> silent =
        rules.stream()
            .filter(PrometheusRulesTest::aboutAnOrg)
            .filter(r -> !r.annotation("summary").contains(ORG_IN_SUMMARY))
            .map(RuleFile::toString)
            .toList();

    assertThat(silent).as("summaries without " + ORG_IN_SUMMARY).isEmpty();
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
  void everyAlertsSectionSaysWhatItsOrgLabelPointsAt() throws Exception {
    Map<String, String> sections = DocPages.sections(ALERTS_DOC);
    List<String> silent =
        rules.stream()
            .filter(RuleFile::isAlert)
            .map(RuleFile::alert)
            .filter(a -> !sections.getOrDefault(a, "").contains("**With orgs:**"))
            .toList();

    assertThat(silent).as("alert sections without a **With orgs:** paragraph").isEmpty();
  }

  /**
   * The runbook links are absolute under a placeholder base; the alerts page gives the command that
   * points them at your docs. Run as written on a copy of the rules, it leaves no placeholder and
   * the unit tests still pass.
   */
  @Test
  void theDocumentedRunbookBaseReplacementKeepsTheUnitTestsPassing(@TempDir Path copy)
      throws Exception {
    Matcher sed = SED.matcher(Files.readString(ALERTS_DOC));
    assertThat(sed.find()).as("the sed command of " + ALERTS_DOC).isTrue();
    for (Path dir : List.of(DeployFiles.PROMETHEUS, DeployFiles.LOKI)) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
          Path target = copy.resolve(MetricsReference.ROOT.relativize(f));
          Files.createDirectories(target.getParent());
          Files.copy(f, target);
        }
      }
    }

    ToolRun replaced =
        ToolRun.run(copy, TestTiming.seconds(30), "", List.of("sh", "-c", sed.group()));
    List<String> args = new ArrayList<>(List.of("test", "rules"));
    DeployFiles.list(DeployFiles.PROMETHEUS_TESTS, ".test.yaml")
        .forEach(f -> args.add(f.getFileName().toString()));
    ToolRun test =
        PromTool.run(
            copy.resolve(MetricsReference.ROOT.relativize(DeployFiles.PROMETHEUS_TESTS)), "", args);

    assertThat(replaced.succeeded()).as(replaced.describe()).isTrue();
    try (Stream<Path> files = Files.walk(copy)) {
      assertThat(files.filter(Files::isRegularFile).toList())
          .isNotEmpty()
          .allSatisfy(f -> assertThat(Files.readString(f)).doesNotContain(PLACEHOLDER));
    }
    assertThat(test.succeeded()).as(test.describe()).isTrue();
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
