package io.sf2loki.cli.migrate;

import io.sf2loki.cli.migrate.MigrationNote.Kind;
import io.sf2loki.config.DocumentNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Python {@code orgs} list. Each org has its own {@code salesforce} and {@code sources} there,
 * and shares the sink, state, coordinator and service: exactly what an element of our {@code orgs}
 * may set and what it inherits, so each org becomes one element, in the same order and under the
 * same name (its {@code org} label and checkpoint key prefix {@code org=<name>:} stay as they
 * were).
 */
final class Orgs {

  /** Python's rule for {@code orgs[].name}. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");

  /** The Python defaults of the names our orgs suffix (the same as ours). */
  private static final Map<String, String> PYTHON_DOCUMENTS =
      Map.of(
          "state.file.path", "/var/lib/sf2loki/state.json",
          "state.s3.key", "sf2loki/state.json",
          "state.gcs.object_name", "sf2loki/state.json");

  private static final Map<String, String> PYTHON_LEASES =
      Map.of(
          "coordinate.file_lease.path", "/var/lib/sf2loki/leader.lease",
          "coordinate.k8s_lease.name", "sf2loki-leader");

  private Orgs() {}

  /**
   * One {@code orgs[]} entry of the Python file.
   *
   * @param key its dotted Python key: {@code orgs[<name>]}, or {@code orgs[<index>]} without a
   *     valid name
   * @param name its name when it is a valid, unique one
   */
  record PythonOrg(String key, Optional<String> name, Map<?, ?> values) {

    PythonSection section(Conversion conversion) {
      return new PythonSection(key, new LinkedHashMap<>(values), conversion);
    }
  }

  /**
   * Reads {@code orgs}; an entry that is not a mapping, or whose name is missing, malformed or
   * repeated, is a problem (Python refuses the file), as is a name repeated in another case, which
   * Python tells apart but our org names, documents and leases do not.
   */
  static List<PythonOrg> read(PythonSection root) {
    Conversion conversion = root.conversion();
    Object raw = root.raw("orgs").orElse(List.of());
    if (!(raw instanceof List<?> list)) {
      conversion.problem("orgs", "must be a list, not " + PythonValues.describe(raw));
      return List.of();
    }
    List<PythonOrg> orgs = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (int i = 0; i < list.size(); i++) {
      String indexKey = "orgs[" + i + "]";
      if (!(list.get(i) instanceof Map<?, ?> values)) {
        conversion.problem(
            indexKey, "must be a mapping, not " + PythonValues.describe(list.get(i)));
        continue;
      }
      Optional<String> name = name(conversion, indexKey, values.get("name"), seen);
      orgs.add(new PythonOrg(name.map(n -> "orgs[" + n + "]").orElse(indexKey), name, values));
    }
    return orgs;
  }

  private static Optional<String> name(
      Conversion conversion, String indexKey, Object value, Map<String, String> seen) {
    String key = indexKey + ".name";
    if (value == null) {
      conversion.problem(key, "required");
      return Optional.empty();
    }
    Optional<String> name = PythonValues.string(conversion, key, value);
    if (name.isEmpty()) {
      return name;
    }
    if (!NAME.matcher(name.get()).matches()) {
      conversion.problem(
          key,
          "must be letters, digits, _ and - only ([A-Za-z0-9_-]+), not \"" + name.get() + "\"");
      return Optional.empty();
    }
    String earlier = seen.putIfAbsent(name.get().toLowerCase(Locale.ROOT), name.get());
    if (earlier != null) {
      conversion.problem(
          key,
          earlier.equals(name.get())
              ? "\"" + name.get() + "\" names an earlier org too: org names must be unique"
              : "\""
                  + name.get()
                  + "\" differs from the earlier org \""
                  + earlier
                  + "\" only in case, which names the same org (document, lease) here: rename one");
      return Optional.empty();
    }
    return name;
  }

  /** The valid names, in order. */
  static List<String> names(List<PythonOrg> orgs) {
    return orgs.stream().flatMap(o -> o.name().stream()).toList();
  }

  /** Converts every org into an element of our {@code orgs}; the conversions of the elements. */
  static List<Conversion> convertAll(PythonSection root, List<PythonOrg> orgs) {
    Conversion conversion = root.conversion();
    List<Conversion> converted = new ArrayList<>();
    List<Object> elements = new ArrayList<>();
    for (PythonOrg org : orgs) {
      Conversion element = conversion.org(converted.size());
      PythonSection section = org.section(element);
      section.raw("name");
      org.name().ifPresent(name -> section.set("name", "name", name));
      PythonConfigMigrator.convertOrg(section);
      section.finish();
      converted.add(element);
      elements.add(element.tree());
    }
    conversion.set("orgs", elements);
    root.drop(
        "sources",
        "each org's sources were converted (orgs[].sources); this one must stay default");
    return converted;
  }

  /**
   * What the Python original shares across its orgs and we keep per org: the checkpoint document
   * and the lease. Reported with each org's own names, so the operator knows where its state and
   * lease will be.
   */
  static void sharedNotes(Conversion conversion, List<String> names) {
    String store = String.valueOf(conversion.value("state.store").orElse("file"));
    DocumentNames.documentKey(store)
        .ifPresent(
            key ->
                conversion.note(
                    "state",
                    Kind.DIFFERENT_SEMANTICS,
                    "one document shared by the orgs in Python (keys org=<name>:...); here each org"
                        + " keeps its own ("
                        + suffixed(conversion, key, PYTHON_DOCUMENTS.get(key), names)
                        + "): run `sf2loki state migrate` before the first start to carry the"
                        + " positions and the fence epoch over"));
    String type = String.valueOf(conversion.value("coordinate.type").orElse("noop"));
    String leaseKey =
        switch (type) {
          case "file_lease" -> "coordinate.file_lease.path";
          case "k8s_lease" -> "coordinate.k8s_lease.name";
          default -> "";
        };
    if (!leaseKey.isEmpty()) {
      conversion.note(
          "coordinate",
          Kind.DIFFERENT_SEMANTICS,
          "one lease for all orgs in Python; here each org has its own ("
              + suffixed(conversion, leaseKey, PYTHON_LEASES.get(leaseKey), names)
              + "), so the replicas may share the orgs out");
    }
  }

  /** Each org's name for the key, as our org derivation makes it, comma-separated. */
  private static String suffixed(
      Conversion conversion, String key, String pythonDefault, List<String> names) {
    String configured = String.valueOf(conversion.value(key).orElse(pythonDefault));
    return names.stream()
        .map(
            name ->
                key.equals("coordinate.k8s_lease.name")
                    ? configured + "-" + name
                    : DocumentNames.suffixed(configured, "-" + name))
        .collect(Collectors.joining(", "));
  }
}
