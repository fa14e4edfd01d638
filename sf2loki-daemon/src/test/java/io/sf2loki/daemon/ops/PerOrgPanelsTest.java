package io.sf2loki.daemon.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.tools.ToolRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The high-availability dashboard per org (issue 20: leader, epoch and lag per shard): its per-org
 * panels group by {@code org}, and evaluated by Prometheus they give one row per org with several
 * orgs and one row without the label for a single org. Its shards row, on the per-process balance
 * meters, gives one row per replica.
 */
class PerOrgPanelsTest {

  private static final Pattern BY_ORG = Pattern.compile("by \\(org[,)]");

  static Dashboard ha;

  @TempDir Path tmp;

  @BeforeAll
  static void read() throws Exception {
    ha = Dashboard.read(DeployFiles.GRAFANA.resolve("sf2loki-ha.json"));
  }

  @Test
  void theHaDashboardShowsTheLeaderTheEpochAndTheIngestLagOfEachOrg() {
    for (String metric :
        List.of("sf2loki_leader{", "sf2loki_leader_epoch{", "sf2loki_ingest_lag_seconds_bucket{")) {
      assertThat(ha.queries())
          .as("a query of %s grouped by org", metric)
          .anySatisfy(
              q -> {
                assertThat(q.expr()).contains(metric);
                assertThat(BY_ORG.matcher(q.expr()).find()).isTrue();
              });
    }
  }

  @Test
  void thePerOrgLeaderPanelsGiveARowPerOrgAndOneRowForASingleOrg() throws Exception {
    Map<String, Object> singleOrg =
        test(
            "one org, no org label: a leads at epoch 3, b stands by",
            List.of(
                series("sf2loki_leader", "a", null, 1),
                series("sf2loki_leader", "b", null, 0),
                series("sf2loki_leader_epoch", "a", null, 3),
                series("sf2loki_leader_epoch", "b", null, 2)),
            List.of(
                expect("Leaders per org", "A", sample("{}", 1)),
                expect("Epoch per org", "A", sample("{}", 3)),
                expect("Who leads each org", "A", sample("{instance=\"a\"}", 1)),
                expect("Who leads each org", "B", sample("{instance=\"a\"}", 3))));
    Map<String, Object> twoOrgs =
        test(
            "two orgs: a leads prod at epoch 5, b leads emea at epoch 7",
            List.of(
                series("sf2loki_leader", "a", "prod", 1),
                series("sf2loki_leader", "b", "prod", 0),
                series("sf2loki_leader", "a", "emea", 0),
                series("sf2loki_leader", "b", "emea", 1),
                series("sf2loki_leader_epoch", "a", "prod", 5),
                series("sf2loki_leader_epoch", "b", "prod", 4),
                series("sf2loki_leader_epoch", "a", "emea", 6),
                series("sf2loki_leader_epoch", "b", "emea", 7)),
            List.of(
                expect(
                    "Leaders per org",
                    "A",
                    sample("{org=\"prod\"}", 1),
                    sample("{org=\"emea\"}", 1)),
                expect(
                    "Epoch per org", "A", sample("{org=\"prod\"}", 5), sample("{org=\"emea\"}", 7)),
                expect(
                    "Who leads each org",
                    "A",
                    sample("{instance=\"a\", org=\"prod\"}", 1),
                    sample("{instance=\"b\", org=\"emea\"}", 1)),
                expect(
                    "Who leads each org",
                    "B",
                    sample("{instance=\"a\", org=\"prod\"}", 5),
                    sample("{instance=\"b\", org=\"emea\"}", 7))));
    assertThat(run(List.of(singleOrg, twoOrgs)).succeeded()).isTrue();
  }

  @Test
  void theShardsRowShowsEachReplicasOrgsAgainstItsCapTheReplicasItSeesAndHandOversByReason()
      throws Exception {
    List<Map<String, Object>> series = new ArrayList<>();
    for (String instance : List.of("a", "b", "c")) {
      series.add(
          process("sf2loki_shards_held", instance, "", instance.equals("a") ? "4x10" : "3x10"));
      series.add(process("sf2loki_shard_cap", instance, "", "4x10"));
      series.add(process("sf2loki_shard_replicas", instance, "", "3x10"));
    }
    series.add(process("sf2loki_shard_handovers_total", "a", ", reason=\"balance\"", "0+1x10"));
    series.add(process("sf2loki_shard_handovers_total", "b", ", reason=\"balance\"", "0+1x10"));
    series.add(process("sf2loki_shard_handovers_total", "c", ", reason=\"stop\"", "2x10"));
    String held = "Orgs held per replica against its cap";
    Map<String, Object> threeReplicas =
        test(
            "3 replicas for 10 orgs: a leads 4, b and c 3 each; a and b handed one over a minute",
            series,
            List.of(
                expect(
                    held,
                    "A",
                    sample("{instance=\"a\"}", 4),
                    sample("{instance=\"b\"}", 3),
                    sample("{instance=\"c\"}", 3)),
                expect(
                    held,
                    "B",
                    sample("{instance=\"a\"}", 4),
                    sample("{instance=\"b\"}", 4),
                    sample("{instance=\"c\"}", 4)),
                expect(
                    "Live replicas seen",
                    "A",
                    sample("{instance=\"a\"}", 3),
                    sample("{instance=\"b\"}", 3),
                    sample("{instance=\"c\"}", 3)),
                expect(
                    "Hand-overs by reason",
                    "A",
                    sample("{reason=\"balance\"}", 10),
                    sample("{reason=\"stop\"}", 0))));

    assertThat(run(List.of(threeReplicas)).succeeded()).isTrue();
  }

  private ToolRun run(List<Map<String, Object>> tests) throws Exception {
    Map<String, Object> file = new LinkedHashMap<>();
    file.put("evaluation_interval", "1m");
    file.put("tests", tests);
    Path path = Files.writeString(tmp.resolve("panels.test.yaml"), new Yaml().dump(file));
    ToolRun run = PromTool.run(tmp, "", List.of("test", "rules", path.getFileName().toString()));
    assertThat(run.succeeded()).as(run.describe() + "\n" + Files.readString(path)).isTrue();
    return run;
  }

  private static Map<String, Object> process(
      String metric, String instance, String labels, String values) {
    return Map.of(
        "series",
        metric + "{job=\"sf2loki\", instance=\"" + instance + "\"" + labels + "}",
        "values",
        values);
  }

  private static Map<String, Object> test(
      String name, List<Map<String, Object>> series, List<Map<String, Object>> expressions) {
    Map<String, Object> test = new LinkedHashMap<>();
    test.put("name", name);
    test.put("interval", "1m");
    test.put("input_series", series);
    test.put("promql_expr_test", expressions);
    return test;
  }

  private static Map<String, Object> series(String metric, String instance, String org, int value) {
    String orgLabel = org == null ? "" : ", org=\"" + org + "\"";
    return process(metric, instance, orgLabel, value + "x10");
  }

  private static Map<String, Object> expect(String panel, String refId, Sample... samples) {
    String id = ha.uid() + " / " + panel + " / " + refId;
    Dashboard.Query query =
        ha.queries().stream()
            .filter(q -> q.id().equals(id))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no query " + id));
    return Map.of(
        "expr",
        query.expanded(),
        "eval_time",
        "5m",
        "exp_samples",
        Arrays.stream(samples).map(Sample::yaml).toList());
  }

  private static Sample sample(String labels, int value) {
    return new Sample(labels, value);
  }

  /** One expected sample of a {@code promql_expr_test}: its labels as PromQL writes them. */
  private record Sample(String labels, int value) {
    Map<String, Object> yaml() {
      return Map.of("labels", labels, "value", value);
    }
  }
}
