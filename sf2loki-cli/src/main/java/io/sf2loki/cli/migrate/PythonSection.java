package io.sf2loki.cli.migrate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One mapping of the Python YAML, read key by key. Every key read is marked, so whatever is left at
 * {@link #finish()} is an unknown key, which the Python loader refuses (and so do we). Values of
 * the wrong type are problems by dotted path; a YAML null means "the default", as in pydantic.
 */
final class PythonSection {

  private final String path;
  private final Map<?, ?> values;
  private final Conversion conversion;
  private final Set<String> read = new HashSet<>();

  PythonSection(String path, Map<?, ?> values, Conversion conversion) {
    this.path = path;
    this.values = values;
    this.conversion = conversion;
  }

  /** The dotted Python key of this section itself. */
  String path() {
    return path;
  }

  /** The dotted Python key of a member. */
  String key(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  boolean has(String name) {
    return values.get(name) != null;
  }

  /** The raw value of a member, marking it read. */
  Optional<Object> raw(String name) {
    read.add(name);
    return Optional.ofNullable(values.get(name));
  }

  Optional<PythonSection> section(String name) {
    return raw(name).flatMap(v -> asSection(key(name), v));
  }

  List<PythonSection> sections(String name) {
    List<PythonSection> sections = new ArrayList<>();
    raw(name)
        .flatMap(v -> list(key(name), v))
        .ifPresent(
            list -> list.forEach(e -> asSection(key(name) + "[]", e).ifPresent(sections::add)));
    return sections;
  }

  Optional<String> string(String name) {
    return raw(name).flatMap(v -> PythonValues.string(conversion, key(name), v));
  }

  Optional<Object> convert(String name, PythonType type) {
    return raw(name).flatMap(v -> type.convert(conversion, key(name), v));
  }

  /** Copies a member to our key, converted by its type, and reports where it went. */
  void copy(String name, PythonType type, String target) {
    convert(name, type).ifPresent(v -> set(name, target, v));
  }

  /** Sets our key from a member and reports where it went. */
  void set(String name, String target, Object value) {
    conversion.set(target, value);
    conversion.mapped(key(name), target);
  }

  /** Drops a member that has nothing here doing what it does, with a note saying so. */
  void drop(String name, String why) {
    if (raw(name).isPresent()) {
      conversion.note(key(name), MigrationNote.Kind.NO_EQUIVALENT, why);
    }
  }

  /** Reports every member not read as an unknown key. */
  void finish() {
    for (Object name : values.keySet()) {
      if (!read.contains(String.valueOf(name))) {
        conversion.problem(key(String.valueOf(name)), "unknown key");
      }
    }
  }

  Conversion conversion() {
    return conversion;
  }

  private Optional<PythonSection> asSection(String key, Object value) {
    if (value instanceof Map<?, ?> map) {
      return Optional.of(new PythonSection(key, new LinkedHashMap<>(map), conversion));
    }
    conversion.problem(key, "must be a mapping, not " + PythonValues.describe(value));
    return Optional.empty();
  }

  private Optional<List<?>> list(String key, Object value) {
    if (value instanceof List<?> list) {
      return Optional.of(list);
    }
    conversion.problem(key, "must be a list, not " + PythonValues.describe(value));
    return Optional.empty();
  }
}
