package io.sf2loki.daemon.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.daemon.MetricsReference;
import io.sf2loki.testkit.tools.ToolRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/grafana: importable dashboards whose every PromQL query loads in Prometheus and reads only
 * documented metrics, and whose every LogQL query parses with Grafana's grammar and reads only what
 * sf2loki ships.
 */
class DashboardsTest {

  private static final Pattern LABEL_VALUES = Pattern.compile("^label_values\\((.*), *\\w+\\)$");

  private static final Pattern ORG_VALUES =
      Pattern.compile("^label_values\\(sf2loki_leader(\\{[^}]*\\})?, *org\\)$");

  /** A series selector of an sf2loki metric, with its matchers if it has any. */
  private static final Pattern SELECTOR = Pattern.compile("\\b(sf2loki_\\w+)(\\{[^}]*\\})?");

  private static final String ORG_FILTER = "org=~\"$org\"";

  static List<Dashboard> dashboards = new ArrayList<>();

  @TempDir Path tmp;

  @BeforeAll
  static void read() throws Exception {
    for (Path f : DeployFiles.list(DeployFiles.GRAFANA, ".json")) {
      dashboards.add(Dashboard.read(f));
    }
  }

  @Test
  void everyDashboardImportsWithItsDatasourcesAsInputs() {
    List<String> problems = new ArrayList<>();
    Set<String> uids = new HashSet<>();
    for (Dashboard d : dashboards) {
      JsonNode json = d.json();
      String name = d.file().getFileName().toString();
      if (d.uid().isBlank() || d.uid().length() > 40 || !uids.add(d.uid())) {
        problems.add(name + ": the uid must be unique, 1 to 40 characters");
      }
      if (json.path("title").asText().isBlank() || json.path("schemaVersion").asInt() < 36) {
        problems.add(name + ": a title and schemaVersion 36+ (Grafana 10) are required");
      }
      Set<String> inputs = new TreeSet<>();
      json.path("__inputs").forEach(i -> inputs.add("${" + i.path("name").asText() + "}"));
      Set<String> used = new TreeSet<>();
      Set<Integer> ids = new HashSet<>();
      for (JsonNode p : d.panels()) {
        String panel = name + " / " + p.path("title").asText();
        used.add(p.path("datasource").path("uid").asText());
        if (!ids.add(p.path("id").asInt()) || !p.has("gridPos")) {
          problems.add(panel + ": a unique id and a gridPos are required");
        }
        if (p.path("description").asText().isBlank()) {
          problems.add(panel + ": say what the panel shows in its description");
        }
      }
      d.queries().forEach(q -> used.add(q.datasource()));
      d.variableQueries().forEach(q -> used.add(q.datasource()));
      if (!Set.of(Dashboard.PROMETHEUS, Dashboard.LOKI).containsAll(used)) {
        problems.add(name + ": datasources must be ${DS_PROMETHEUS} or ${DS_LOKI}, not " + used);
      }
      if (!inputs.equals(used)) {
        problems.add(
            name + ": __inputs " + inputs + " must be exactly the datasources used " + used);
      }
    }

    assertThat(problems).isEmpty();
  }

  @Test
  void everyPromQlQueryLoadsInPrometheus() throws Exception {
    StringBuilder rules = new StringBuilder("groups:\n  - name: dashboards\n    rules:\n");
    int n = 0;
    for (Dashboard.Query q : promQueries()) {
      rules
          .append("      # ")
          .append(q.id().replace('\n', ' '))
          .append("\n      - record: dashboard:query_")
          .append(n++)
          .append("\n        expr: ")
          .append(
              new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(q.expanded()))
          .append('\n');
    }
    Path file = Files.writeString(tmp.resolve("dashboards.rules.yaml"), rules);

    ToolRun check = PromTool.checkRules(List.of(file));

    assertThat(n).isGreaterThan(0);
    assertThat(check.succeeded()).as(check.describe() + "\n" + rules).isTrue();
  }

  /**
   * With {@code orgs} every series carries {@code org}; without, none does. The variable's
   * <em>All</em> is {@code .*}, which matches a missing label too, so one dashboard serves both.
   */
  @Test
  void everyPrometheusDashboardHasAMultiValueOrgVariableWhoseAllAlsoMatchesNoOrg() {
    List<String> problems = new ArrayList<>();
    for (Dashboard d : dashboards) {
      if (d.queries().stream().noneMatch(q -> q.datasource().equals(Dashboard.PROMETHEUS))) {
        continue;
      }
      JsonNode org = d.variable("org");
      String name = d.file().getFileName().toString();
      if (org.isMissingNode()
          || !org.path("multi").asBoolean()
          || !org.path("includeAll").asBoolean()
          || !org.path("allValue").asText().equals(".*")
          || !ORG_VALUES.matcher(org.path("definition").asText()).matches()) {
        problems.add(name + ": needs an org variable, multi-value, All = .*, " + ORG_VALUES);
      }
    }

    assertThat(problems).isEmpty();
  }

  /**
   * Every selector of a metric that carries {@code org} filters the selected orgs. The per-process
   * meters (the reference's {@link MetricsReference#PER_PROCESS_SECTION} section: shard balance)
   * carry no {@code org}, so their selectors must not filter it: with one org selected, {@code
   * org=~"prod"} would match none of their series and the panel would go blank.
   */
  @Test
  void everyPromQlSelectorFiltersTheSelectedOrgsUnlessItsMetricHasNoOrg() throws Exception {
    Set<String> perProcess = MetricsReference.perProcess();
    List<String> unfiltered = new ArrayList<>();
    List<String> filtered = new ArrayList<>();
    List<Dashboard.Query> panels = new ArrayList<>();
    dashboards.forEach(d -> panels.addAll(d.queries()));
    for (Dashboard.Query q : panels) {
      if (!q.datasource().equals(Dashboard.PROMETHEUS)) {
        continue;
      }
      Matcher m = SELECTOR.matcher(q.expr());
      while (m.find()) {
        boolean byOrg = m.group(2) != null && m.group(2).contains("org=");
        if (perProcess.contains(m.group(1))) {
          if (byOrg) {
            filtered.add(q.id() + ": " + m.group());
          }
        } else if (m.group(2) == null || !m.group(2).contains(ORG_FILTER)) {
          unfiltered.add(q.id() + ": " + m.group());
        }
      }
    }

    assertThat(perProcess).as("the per-process meters of " + MetricsReference.DOC).isNotEmpty();
    assertThat(unfiltered).as("selectors without " + ORG_FILTER).isEmpty();
    assertThat(filtered).as("selectors of per-process meters filtering org").isEmpty();
  }

  @Test
  void everyMetricADashboardReadsIsInTheMetricsReference() throws Exception {
    Set<String> documented = MetricsReference.documented();
    List<String> unknown = new ArrayList<>();
    for (Dashboard.Query q : promQueries()) {
      PromQlNames.metrics(q.expr()).stream()
          .filter(m -> !PromQlNames.isDocumented(m, documented))
          .forEach(m -> unknown.add(q.id() + " reads " + m));
      if (!PromQlNames.recorded(q.expr()).isEmpty()) {
        unknown.add(q.id() + " reads a recorded series: dashboards must work without the rules");
      }
    }

    assertThat(unknown).isEmpty();
  }

  @Test
  void everyLogQlQueryParsesAndNamesOnlyLabelsMetadataAndFieldsSf2lokiShips() throws Exception {
    Map<String, String> expressions = new LinkedHashMap<>();
    for (Dashboard d : dashboards) {
      d.queries().stream()
          .filter(q -> q.datasource().equals(Dashboard.LOKI))
          .forEach(q -> expressions.put(q.id(), q.expanded()));
    }
    List<String> violations = new ArrayList<>();
    LogQl.parse(expressions).forEach(p -> violations.addAll(LogQlPolicy.violations(p)));

    assertThat(expressions).isNotEmpty();
    assertThat(violations).isEmpty();
  }

  @Test
  void theDashboardsPageDescribesEveryDashboard() throws Exception {
    String page = Files.readString(DeployFiles.OBSERVABILITY.resolve("dashboards.md"));
    List<String> missing = new ArrayList<>();
    for (Dashboard d : dashboards) {
      if (!page.contains("`" + d.file().getFileName() + "`")) {
        missing.add(d.file().getFileName().toString());
      }
    }

    assertThat(missing).isEmpty();
  }

  /** Panel queries on Prometheus, and the variables' label_values() selectors. */
  private static List<Dashboard.Query> promQueries() {
    List<Dashboard.Query> out = new ArrayList<>();
    for (Dashboard d : dashboards) {
      d.queries().stream()
          .filter(q -> q.datasource().equals(Dashboard.PROMETHEUS))
          .forEach(out::add);
      for (Dashboard.Query v : d.variableQueries()) {
        var m = LABEL_VALUES.matcher(v.expr());
        if (v.datasource().equals(Dashboard.PROMETHEUS) && m.matches()) {
          out.add(new Dashboard.Query(v.id(), v.datasource(), m.group(1)));
        }
      }
    }
    return out;
  }
}
