package io.sf2loki.cli.migrate;

import io.sf2loki.cli.migrate.MigrationNote.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The state of one conversion: the target tree being built, the notes and the problems found. */
final class Conversion {

  /** Our top-level sections in data-path order, so the output reads like the example. */
  private static final List<String> SECTIONS =
      List.of("salesforce", "sources", "sink", "state", "coordinate", "service");

  private final Map<String, Object> tree = new LinkedHashMap<>();
  private final List<MigrationNote> notes = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();

  Conversion() {
    SECTIONS.forEach(section -> tree.put(section, new LinkedHashMap<String, Object>()));
  }

  /** Sets our key (a dotted path of plain names) to a value. */
  void set(String path, Object value) {
    String[] names = path.split("\\.");
    Map<String, Object> node = tree;
    for (int i = 0; i < names.length - 1; i++) {
      node = child(node, names[i]);
    }
    node.put(names[names.length - 1], value);
  }

  /** True when our key was set by this conversion. */
  boolean isSet(String path) {
    String[] names = path.split("\\.");
    Object node = tree;
    for (String name : names) {
      if (!(node instanceof Map<?, ?> map) || !map.containsKey(name)) {
        return false;
      }
      node = map.get(name);
    }
    return true;
  }

  void note(String pythonKey, Kind kind, String message) {
    notes.add(new MigrationNote(pythonKey, kind, message));
  }

  void problem(String pythonKey, String message) {
    problems.add(pythonKey + ": " + message);
  }

  List<String> problems() {
    return problems;
  }

  List<MigrationNote> notes() {
    return notes;
  }

  Map<String, Object> tree() {
    return tree;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> child(Map<String, Object> node, String name) {
    return (Map<String, Object>)
        node.computeIfAbsent(name, n -> new LinkedHashMap<String, Object>());
  }
}
