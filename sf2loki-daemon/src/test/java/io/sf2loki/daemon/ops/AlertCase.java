package io.sf2loki.daemon.ops;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * @param inputInstances the distinct {@code instance} label values of the test's input series: the
 *     processes it simulates
 * @param expected the labels of every expected alert (empty: a quiet case)
 */
record AlertCase(
    String alert,
    String test,
    Set<String> inputOrgs,
    Set<String> inputInstances,
    List<Map<String, Object>> expected) {

  private static final Pattern ORG = label("org");
  private static final Pattern INSTANCE = label("instance");

  /** Every case of every test of the unit test files in {@code dir}. */
  static List<AlertCase> readAll(Path dir) throws IOException {
    List<AlertCase> cases = new ArrayList<>();
    for (Path file : DeployFiles.list(dir, ".test.yaml")) {
      for (Map<String, Object> test : DeployFiles.maps(DeployFiles.yaml(file).get("tests"))) {
        Set<String> orgs = new TreeSet<>();
        Set<String> instances = new TreeSet<>();
        for (Map<String, Object> s : DeployFiles.maps(test.get("input_series"))) {
          String series = Objects.toString(s.get("series"), "");
          find(ORG, series).ifPresent(orgs::add);
          find(INSTANCE, series).ifPresent(instances::add);
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
                  Set.copyOf(instances),
                  labels));
        }
      }
    }
    return cases;
  }

  private static Pattern label(String name) {
    return Pattern.compile("[{,]\\s*" + name + "=\"([^\"]*)\"");
  }

  private static Optional<String> find(Pattern label, String series) {
    Matcher m = label.matcher(series);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
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
