package io.sf2loki.config.orgs;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigSchema;
import io.sf2loki.config.Suggestions;
import io.sf2loki.config.UnknownKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the elements of {@code orgs}: each an object of {@code name} (required, {@value
 * #NAME_PATTERN}, unique ignoring case because it names files, not {@value #RESERVED}), {@code
 * salesforce} (required; the keys of the top-level section), {@code sources} (the keys of the
 * top-level section) and {@code sink.loki} with only {@code tenant_id} and {@code labels}. Every
 * problem is collected with its path ({@code orgs[1].salesforce.clientid}).
 */
final class OrgEntries {

  /** The org names the Python sf2loki accepts: a label value, a key prefix and a file suffix. */
  static final String NAME_PATTERN = "^[A-Za-z0-9_-]+$";

  private static final Pattern NAME = Pattern.compile(NAME_PATTERN);

  /** The name no org may take, ignoring case: the shard roster's suffix. */
  static final String RESERVED = "roster";

  private static final Set<String> KEYS = Set.of("name", "salesforce", "sources", "sink");
  private static final Set<String> SINK_KEYS = Set.of("loki.tenant_id", "loki.labels");

  private final ConfigSchema schema;
  private final List<ConfigProblem> problems;

  OrgEntries(ConfigSchema schema, List<ConfigProblem> problems) {
    this.schema = schema;
    this.problems = problems;
  }

  /** The elements whose name is valid and unique; the others are reported. */
  List<OrgEntry> read(ConfigList orgs) {
    List<OrgEntry> entries = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < orgs.size(); i++) {
      String path = OrgEntry.path(i);
      if (!(orgs.get(i) instanceof ConfigObject element)) {
        problems.add(
            new ConfigProblem(
                path, path + " must be an object {name, salesforce, sources, sink.loki}"));
        continue;
      }
      checkKeys(element, path);
      Optional<String> name = name(element, path);
      if (name.isEmpty()) {
        continue;
      }
      Integer earlier = seen.putIfAbsent(name.get().toLowerCase(Locale.ROOT), i);
      if (earlier != null) {
        problems.add(
            new ConfigProblem(
                path + ".name",
                path
                    + ".name ("
                    + name.get()
                    + ") is also the name of "
                    + OrgEntry.path(earlier)
                    + ": org names must be unique, ignoring case (they name files)"));
        continue;
      }
      entries.add(new OrgEntry(i, name.get(), element));
    }
    return entries;
  }

  private Optional<String> name(ConfigObject element, String path) {
    ConfigValue value = element.get("name");
    if (value == null || value.valueType() == ConfigValueType.NULL) {
      problems.add(new ConfigProblem(path + ".name", path + ".name is required"));
      return Optional.empty();
    }
    String name = String.valueOf(value.unwrapped()).strip();
    if (value.valueType() != ConfigValueType.STRING || !NAME.matcher(name).matches()) {
      problems.add(
          new ConfigProblem(
              path + ".name",
              path
                  + ".name ('"
                  + name
                  + "') must be letters, digits, '_' and '-' only: it is the org label, the"
                  + " checkpoint key prefix org=<name>: and part of file names"));
      return Optional.empty();
    }
    if (name.equalsIgnoreCase(RESERVED)) {
      problems.add(
          new ConfigProblem(
              path + ".name",
              path
                  + ".name ('"
                  + name
                  + "') is reserved: the roster of live replicas is named after the leases with"
                  + " -"
                  + RESERVED
                  + ", which would be this org's lease; rename the org"));
      return Optional.empty();
    }
    return Optional.of(name);
  }

  private void checkKeys(ConfigObject element, String path) {
    for (Map.Entry<String, ConfigValue> e : element.entrySet()) {
      String key = e.getKey();
      if (!KEYS.contains(key)) {
        String message = "unknown configuration key '" + path + "." + key + "'";
        problems.add(
            new ConfigProblem(
                path + "." + key,
                Suggestions.nearest(key, KEYS)
                    .map(s -> message + " (did you mean '" + path + "." + s + "'?)")
                    .orElse(message + ": an org takes name, salesforce, sources and sink.loki")));
      } else if (!key.equals("name") && !(e.getValue() instanceof ConfigObject)) {
        problems.add(new ConfigProblem(path + "." + key, path + "." + key + " must be an object"));
      }
    }
    if (!element.containsKey("salesforce")) {
      problems.add(
          new ConfigProblem(
              path + ".salesforce",
              path + ".salesforce is required: the org's connection (client_id, ...)"));
    }
    for (String section : List.of("salesforce", "sources")) {
      if (element.get(section) instanceof ConfigObject object) {
        List<ConfigProblem> found = new ArrayList<>();
        new UnknownKeys(schema).check(object, section, "", found);
        found.forEach(p -> problems.add(OrgProblems.underOrg(p, path)));
      }
    }
    if (element.get("sink") instanceof ConfigObject sink) {
      checkSink(sink, path);
    }
  }

  private void checkSink(ConfigObject sink, String path) {
    com.typesafe.config.Config tree = sink.toConfig();
    for (Map.Entry<String, ConfigValue> e : tree.entrySet()) {
      String key = e.getKey();
      boolean allowed = SINK_KEYS.stream().anyMatch(k -> key.equals(k) || key.startsWith(k + "."));
      if (!allowed) {
        problems.add(
            new ConfigProblem(
                path + ".sink." + key,
                path
                    + ".sink."
                    + key
                    + " cannot be set per org: an org sets only sink.loki.tenant_id and"
                    + " sink.loki.labels; the rest of sink is shared (set it at the top level)"));
      }
    }
    if (tree.hasPath("loki.labels")) {
      if (tree.getValue("loki.labels").valueType() != ConfigValueType.OBJECT) {
        problems.add(
            new ConfigProblem(
                path + ".sink.loki.labels",
                path + ".sink.loki.labels must be an object of label names to values"));
      } else if (tree.getObject("loki.labels").containsKey("org")) {
        problems.add(
            new ConfigProblem(
                path + ".sink.loki.labels.org",
                path
                    + ".sink.loki.labels.org cannot be set: an org's entries carry org = its name"));
      }
    }
  }
}
