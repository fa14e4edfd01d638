package io.sf2loki.cli.migrate;

import io.sf2loki.cli.migrate.MigrationNote.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The state of one conversion: the target tree being built, the report (each key's target and the
 * notes) and the problems found. An org of a multi-org file converts into a conversion of its own
 * ({@link #org}), which shares the report and the problems and names its keys {@code orgs[i].…}.
 */
final class Conversion {

  /** Our top-level sections in data-path order, so the output reads like the example. */
  private static final List<String> SECTIONS =
      List.of("salesforce", "sources", "orgs", "sink", "state", "coordinate", "service");

  /** An element of our {@code orgs}, in the order of the multi-org example. */
  private static final List<String> ORG_SECTIONS = List.of("name", "salesforce", "sources", "sink");

  private final Map<String, Object> tree = new LinkedHashMap<>();
  private final List<MigrationNote> notes;
  private final List<String> problems;
  private final String javaPrefix;

  Conversion() {
    this(SECTIONS, new ArrayList<>(), new ArrayList<>(), "");
  }

  private Conversion(
      List<String> sections, List<MigrationNote> notes, List<String> problems, String javaPrefix) {
    sections.forEach(section -> tree.put(section, new LinkedHashMap<String, Object>()));
    this.notes = notes;
    this.problems = problems;
    this.javaPrefix = javaPrefix;
  }

  /** The conversion of {@code orgs[index]}: its own tree, this report and these problems. */
  Conversion org(int index) {
    return new Conversion(ORG_SECTIONS, notes, problems, "orgs[" + index + "].");
  }

  /** Sets our key (a dotted path of plain names, relative to this conversion) to a value. */
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
    return value(path).isPresent();
  }

  /** The value of our key set by this conversion. */
  Optional<Object> value(String path) {
    Object node = tree;
    for (String name : path.split("\\.")) {
      if (!(node instanceof Map<?, ?> map) || !map.containsKey(name)) {
        return Optional.empty();
      }
      node = map.get(name);
    }
    return Optional.of(node);
  }

  /** Reports that the Python key became our keys (relative to this conversion). */
  void mapped(String pythonKey, String... paths) {
    mappedTo(pythonKey, Arrays.stream(paths).map(this::javaKey).toList());
  }

  /** Reports that the Python key became these whole keys ({@link #javaKey} of any conversion). */
  void mappedTo(String pythonKey, List<String> javaKeys) {
    notes.add(
        new MigrationNote(
            pythonKey, Kind.CONVERTED, javaKeys.stream().collect(Collectors.joining(", "))));
  }

  /** Our whole key for a path of this conversion: {@code orgs[1].salesforce.client_id}. */
  String javaKey(String path) {
    return javaPrefix + path;
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
