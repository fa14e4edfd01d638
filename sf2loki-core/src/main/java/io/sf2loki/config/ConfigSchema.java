package io.sf2loki.config;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every known key, derived from the merged {@code reference.conf} files and their structured
 * comments:
 *
 * <pre>
 * # What the key does (any number of lines).
 * # &#64;type duration
 * # &#64;required
 * # &#64;example "https://login.salesforce.com"
 * key = 30s
 * </pre>
 *
 * Sections are objects without an {@code @type}; a {@code @type map} object takes user-chosen child
 * names.
 */
public final class ConfigSchema {

  /** The top-level sections sf2loki owns; other libraries' reference.conf entries are ignored. */
  public static final Set<String> ROOTS =
      Set.of("salesforce", "sources", "sink", "state", "coordinate", "service", "orgs");

  private static final ConfigRenderOptions HOCON =
      ConfigRenderOptions.concise().setJson(false).setFormatted(false);

  private final Map<String, KeyDoc> keys;
  private final Map<String, String> sectionDescriptions;

  private ConfigSchema(Map<String, KeyDoc> keys, Map<String, String> sectionDescriptions) {
    this.keys = Collections.unmodifiableMap(keys);
    this.sectionDescriptions = Collections.unmodifiableMap(sectionDescriptions);
  }

  /** Reads the schema from a merged, unresolved reference configuration. */
  public static ConfigSchema from(ConfigObject reference) {
    Map<String, KeyDoc> keys = new LinkedHashMap<>();
    Map<String, String> sections = new LinkedHashMap<>();
    for (String root : reference.keySet().stream().sorted().toList()) {
      if (ROOTS.contains(root)) {
        walk(root, reference.get(root), keys, sections);
      }
    }
    return new ConfigSchema(keys, sections);
  }

  private static void walk(
      String path, ConfigValue value, Map<String, KeyDoc> keys, Map<String, String> sections) {
    Parsed comments = Parsed.of(value.origin().comments());
    if (value instanceof ConfigObject obj && comments.type.isEmpty()) {
      sections.put(path, comments.description);
      for (String child : obj.keySet().stream().sorted().toList()) {
        walk(path + "." + child, obj.get(child), keys, sections);
      }
      return;
    }
    Optional<String> rendered =
        value.valueType() == ConfigValueType.NULL
            ? Optional.empty()
            : Optional.of(value.render(HOCON));
    keys.put(
        path,
        new KeyDoc(
            path,
            comments.type.orElse("string"),
            rendered,
            comments.description,
            comments.required,
            comments.example));
  }

  /** Every key in path order. */
  public List<KeyDoc> keys() {
    return new ArrayList<>(keys.values());
  }

  /** The key at {@code path}, if known. */
  public Optional<KeyDoc> key(String path) {
    return Optional.ofNullable(keys.get(path));
  }

  /** True when {@code path} is a section (an object of known keys). */
  public boolean isSection(String path) {
    return sectionDescriptions.containsKey(path);
  }

  /** The description written above a section, or empty. */
  public String sectionDescription(String path) {
    return sectionDescriptions.getOrDefault(path, "");
  }

  /** Section paths in order. */
  public List<String> sections() {
    return new ArrayList<>(sectionDescriptions.keySet());
  }

  /** Every path a user may write, including the {@code _file} twin of each secret. */
  public List<String> writablePaths() {
    List<String> out = new ArrayList<>();
    for (KeyDoc k : keys.values()) {
      out.add(k.path());
      if (k.isSecret()) {
        out.add(k.path() + "_file");
      }
    }
    return out;
  }

  private record Parsed(
      String description, Optional<String> type, boolean required, Optional<String> example) {

    static Parsed of(List<String> lines) {
      StringBuilder description = new StringBuilder();
      Optional<String> type = Optional.empty();
      Optional<String> example = Optional.empty();
      boolean required = false;
      for (String raw : lines) {
        String line = raw.strip();
        if (line.startsWith("@type ")) {
          type = Optional.of(line.substring(6).strip());
        } else if (line.startsWith("@example ")) {
          example = Optional.of(line.substring(9).strip());
        } else if (line.equals("@required")) {
          required = true;
        } else if (!line.isEmpty()) {
          if (description.length() > 0) {
            description.append(' ');
          }
          description.append(line);
        }
      }
      return new Parsed(description.toString(), type, required, example);
    }
  }
}
