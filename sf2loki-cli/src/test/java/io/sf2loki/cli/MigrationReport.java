package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/** Reads the stderr report of {@code config migrate}. */
final class MigrationReport {

  private MigrationReport() {}

  /**
   * Asserts that every key the Python file sets is named by a report line, itself or through a
   * section the line names (a dropped {@code service.telemetry} covers its keys).
   */
  static void assertEveryKeyReported(String yaml, String report) {
    List<String> reported = reportedKeys(report);
    for (String leaf : leaves(new Yaml().load(yaml))) {
      assertThat(reported.stream().anyMatch(k -> leaf.equals(k) || leaf.startsWith(k + ".")))
          .as(leaf + " in\n" + report)
          .isTrue();
    }
  }

  /** The Python key of each report line ({@code key -> ours}, or {@code kind: key: message}). */
  private static List<String> reportedKeys(String report) {
    List<String> keys = new ArrayList<>();
    for (String line : report.lines().toList()) {
      String body = line.substring("config migrate: ".length());
      int arrow = body.indexOf(" -> ");
      if (arrow >= 0) {
        keys.add(body.substring(0, arrow));
      } else {
        String rest = body.substring(body.indexOf(": ") + 2);
        keys.add(rest.substring(0, rest.indexOf(": ")));
      }
    }
    return keys;
  }

  /** Every key the file sets: lists are one key, an org's keys are under {@code orgs[<name>]}. */
  private static List<String> leaves(Map<?, ?> map) {
    List<String> leaves = new ArrayList<>();
    map.forEach(
        (name, value) -> {
          if (name.equals("orgs")) {
            for (Object org : (List<?>) value) {
              leaves.addAll(
                  prefixed("orgs[" + ((Map<?, ?>) org).get("name") + "]", leaves((Map<?, ?>) org)));
            }
          } else if (value instanceof Map<?, ?> nested) {
            leaves.addAll(prefixed(String.valueOf(name), leaves(nested)));
          } else {
            leaves.add(String.valueOf(name));
          }
        });
    return leaves;
  }

  private static List<String> prefixed(String prefix, List<String> keys) {
    return keys.stream().map(k -> prefix + "." + k).toList();
  }
}
