package io.sf2loki.daemon.ops;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code alert_rule_test} entry of a {@code promtool test rules} file: the alert it checks, the
 * orgs its test's input series belong to, and the labels of the alerts it expects.
 *
 * @param alert the alert's name
 * @param test the test's name, for messages
 * @param inputOrgs the distinct {@code org} label values of the test's input series (empty: a
 *     single-org test)
 * @param expected the labels of every expected alert (empty: a quiet case)
 */
record AlertCase(
    String alert, String test, Set<String> inputOrgs, List<Map<String, Object>> expected) {

  private static final Pattern ORG = Pattern.compile("[{,]\\s*org=\"([^\"]*)\"");

  /** Every case of every test of the unit test files in {@code dir}. */
  static List<AlertCase> readAll(Path dir) throws IOException {
    List<AlertCase> cases = new ArrayList<>();
    for (Path file : DeployFiles.list(dir, ".test.yaml")) {
      for (Map<String, Object> test : DeployFiles.maps(DeployFiles.yaml(file).get("tests"))) {
        Set<String> orgs = new TreeSet<>();
        for (Map<String, Object> s : DeployFiles.maps(test.get("input_series"))) {
          Matcher m = ORG.matcher(Objects.toString(s.get("series"), ""));
          if (m.find()) {
            orgs.add(m.group(1));
          }
        }
        for (Map<String, Object> c : DeployFiles.maps(test.get("alert_rule_test"))) {
          List<Map<String, Object>> labels =
              DeployFiles.maps(c.get("exp_alerts")).stream()
                  .map(a -> DeployFiles.map(a.get("exp_labels")))
                  .toList();
          cases.add(
              new AlertCase(
                  (String) c.get("alertname"),
                  file.getFileName() + ": " + test.get("name"),
                  Set.copyOf(orgs),
                  labels));
        }
      }
    }
    return cases;
  }

  /** Whether it expects the alert to fire. */
  boolean firing() {
    return !expected.isEmpty();
  }

  /** The {@code org} labels of the expected alerts; an alert without one counts as "". */
  Set<String> firingOrgs() {
    Set<String> orgs = new TreeSet<>();
    expected.forEach(l -> orgs.add(Objects.toString(l.get("org"), "")));
    return orgs;
  }
}
