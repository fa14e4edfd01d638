package io.sf2loki.daemon.ops;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One rule of a Prometheus-style rules file (Prometheus' own, or the Loki ruler's), as written.
 *
 * @param file the file it is in
 * @param group its group's name
 * @param alert the alert's name, or {@code null} for a recording rule
 * @param record the recorded series, or {@code null} for an alert
 * @param expr its expression
 * @param labels its labels
 * @param annotations its annotations
 */
record RuleFile(
    Path file,
    String group,
    String alert,
    String record,
    String expr,
    Map<String, Object> labels,
    Map<String, Object> annotations) {

  /** Every rule of every group of {@code file}. */
  static List<RuleFile> read(Path file) throws IOException {
    List<RuleFile> rules = new ArrayList<>();
    for (Map<String, Object> group : DeployFiles.maps(DeployFiles.yaml(file).get("groups"))) {
      for (Map<String, Object> rule : DeployFiles.maps(group.get("rules"))) {
        rules.add(
            new RuleFile(
                file,
                (String) group.get("name"),
                (String) rule.get("alert"),
                (String) rule.get("record"),
                Objects.toString(rule.get("expr"), ""),
                DeployFiles.map(rule.get("labels")),
                DeployFiles.map(rule.get("annotations"))));
      }
    }
    return rules;
  }

  /** Every rule of every file. */
  static List<RuleFile> readAll(List<Path> files) throws IOException {
    List<RuleFile> rules = new ArrayList<>();
    for (Path f : files) {
      rules.addAll(read(f));
    }
    return rules;
  }

  /** Where the runbook_urls point: the placeholder base of the docs, docs/observability/. */
  static final String RUNBOOK_BASE = "https://sf2loki.example.com/docs/observability/";

  /** The severities an alert may carry. */
  static final Set<String> SEVERITIES = Set.of("critical", "warning", "info");

  /**
   * What this alert lacks: a known severity, a summary and a description, and a runbook_url to its
   * own section ({@code ### <alert>}) of {@code page}, whose headings' anchors are {@code anchors}.
   */
  List<String> alertProblems(Path page, Set<String> anchors) {
    List<String> problems = new ArrayList<>();
    if (!SEVERITIES.contains(String.valueOf(labels.get("severity")))) {
      problems.add(this + ": severity " + labels.get("severity") + " not in " + SEVERITIES);
    }
    if (annotation("summary").isBlank() || annotation("description").isBlank()) {
      problems.add(this + ": a summary and a description are required");
    }
    String anchor = DocPages.slug(alert);
    String expected = RUNBOOK_BASE + page.getFileName() + "#" + anchor;
    if (!annotation("runbook_url").equals(expected) || !anchors.contains(anchor)) {
      problems.add(this + ": runbook_url must be " + expected + ", a section '### " + alert + "'");
    }
    return problems;
  }

  /** Whether this is an alerting rule. */
  boolean isAlert() {
    return alert != null;
  }

  /** The alert's or the recorded series' name. */
  String name() {
    return isAlert() ? alert : record;
  }

  /** An annotation's text, or "" when absent. */
  String annotation(String key) {
    return Objects.toString(annotations.get(key), "");
  }

  @Override
  public String toString() {
    return name() + " (" + file.getFileName() + ")";
  }
}
