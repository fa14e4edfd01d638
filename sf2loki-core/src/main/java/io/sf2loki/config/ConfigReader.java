package io.sf2loki.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import io.sf2loki.spi.Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads typed values from one section of a loaded configuration and <em>collects</em> problems
 * instead of throwing, so that a user sees every mistake at once with its key path.
 *
 * <p>Every getter returns a usable fallback when the value is wrong (and records why), so binding
 * code can read a whole section straight through and let {@link #throwIfInvalid()} decide at the
 * end. Defaults come from the modules' {@code reference.conf}; a key set to {@code null} there is
 * optional and unset.
 *
 * <p>Not thread-safe; one reader tree per load.
 */
public final class ConfigReader {

  private final Config root;
  private final String prefix;
  private final Set<ConfigProblem> problems;

  private ConfigReader(Config root, String prefix, Set<ConfigProblem> problems) {
    this.root = root;
    this.prefix = prefix;
    this.problems = problems;
  }

  /** A reader over a whole resolved configuration. */
  public static ConfigReader of(Config resolved) {
    return new ConfigReader(resolved, "", new TreeSet<>());
  }

  /** The reader of the whole configuration, sharing this reader's problem list. */
  public ConfigReader root() {
    return new ConfigReader(root, "", problems);
  }

  /** A reader of {@code key}'s sub-section, sharing this reader's problem list. */
  public ConfigReader section(String key) {
    return new ConfigReader(root, path(key), problems);
  }

  /** The full path of {@code key} in this section, as shown in messages. */
  public String path(String key) {
    return prefix.isEmpty() ? key : prefix + "." + key;
  }

  /** This section's own path ({@code ""} for the root). */
  public String sectionPath() {
    return prefix;
  }

  /** True when {@code key} is set to a non-null value. */
  public boolean isSet(String key) {
    return root.hasPath(path(key));
  }

  /**
   * Whether {@code key} is set by the user (file, string or environment) rather than only by a
   * module's {@code reference.conf} default.
   */
  public boolean isSetByUser(String key) {
    if (!root.hasPath(path(key))) {
      return false;
    }
    String resource = root.getValue(path(key)).origin().resource();
    return resource == null || !resource.endsWith("reference.conf");
  }

  /** Records a problem about {@code key}; the message should start with the key path. */
  public void problem(String key, String message) {
    problems.add(new ConfigProblem(path(key), message));
  }

  /** Every problem recorded so far through any reader of this tree, sorted by path. */
  public List<ConfigProblem> problems() {
    return List.copyOf(problems);
  }

  /** True when a problem was recorded. */
  public boolean hasProblems() {
    return !problems.isEmpty();
  }

  /**
   * Throws when any problem was recorded.
   *
   * @throws ConfigInvalidException listing them all
   */
  public void throwIfInvalid() {
    if (!problems.isEmpty()) {
      throw new ConfigInvalidException(new ArrayList<>(problems));
    }
  }

  /** A string that may be unset or blank (both read as empty). */
  public Optional<String> optionalString(String key) {
    String p = path(key);
    if (!root.hasPath(p)) {
      return Optional.empty();
    }
    ConfigValue v = root.getValue(p);
    if (v.valueType() == ConfigValueType.OBJECT || v.valueType() == ConfigValueType.LIST) {
      problem(key, p + " must be a single value, not " + describe(v.valueType()));
      return Optional.empty();
    }
    String s = String.valueOf(v.unwrapped()).trim();
    return s.isEmpty() ? Optional.empty() : Optional.of(s);
  }

  /** A string that must be present and not blank. */
  public String requiredString(String key) {
    Optional<String> value = optionalString(key);
    if (value.isEmpty() && !hasProblemAt(path(key))) {
      problem(key, path(key) + " must not be empty");
    }
    return value.orElse("");
  }

  /** A string with a default from {@code reference.conf}; blank reads as the empty string. */
  public String string(String key) {
    return optionalString(key).orElse("");
  }

  /** One of {@code allowed}, compared exactly. */
  public String oneOf(String key, Collection<String> allowed) {
    String value = string(key);
    if (!allowed.contains(value)) {
      problem(
          key,
          path(key)
              + " must be one of "
              + String.join(", ", new TreeSet<>(allowed))
              + " (got '"
              + value
              + "')");
    }
    return value;
  }

  /** A boolean ({@code true/false/yes/no/on/off}). */
  public boolean bool(String key) {
    try {
      return root.getBoolean(path(key));
    } catch (ConfigException.Missing e) {
      problem(key, path(key) + " is required (true or false)");
    } catch (ConfigException e) {
      problem(key, path(key) + " must be true or false (got " + raw(key) + ")");
    }
    return false;
  }

  /** An integer within {@code [min, max]}. */
  public int intInRange(String key, int min, int max) {
    long v = longInRange(key, min, max);
    return (int) v;
  }

  /** A long within {@code [min, max]}. */
  public long longInRange(String key, long min, long max) {
    String p = path(key);
    long value;
    try {
      value = root.getLong(p);
    } catch (ConfigException.Missing e) {
      problem(key, p + " is required (an integer)");
      return min;
    } catch (ConfigException e) {
      problem(key, p + " must be an integer (got " + raw(key) + ")");
      return min;
    }
    if (value < min || value > max) {
      problem(key, p + " (" + value + ") must be between " + min + " and " + max);
      return min;
    }
    return value;
  }

  /** A byte size: an integer or a size with a unit ({@code 512KiB}, {@code 4MB}), at least min. */
  public long bytes(String key, long min) {
    String p = path(key);
    long value;
    try {
      value = root.getBytes(p);
    } catch (ConfigException.Missing e) {
      problem(key, p + " is required (a byte size such as 1MiB)");
      return min;
    } catch (ConfigException e) {
      problem(
          key, p + " must be a byte size such as 1048576, 512KiB or 4MiB (got " + raw(key) + ")");
      return min;
    }
    if (value < min) {
      problem(key, p + " (" + value + ") must be at least " + min);
      return min;
    }
    return value;
  }

  /** A duration in any form {@link Durations} accepts; unset yields zero plus a problem. */
  public Duration duration(String key) {
    return optionalDuration(key)
        .orElseGet(
            () -> {
              if (!hasProblemAt(path(key))) {
                problem(key, path(key) + " is required (a duration such as 30s)");
              }
              return Duration.ZERO;
            });
  }

  /** A duration strictly greater than zero. */
  public Duration positiveDuration(String key) {
    Duration d = duration(key);
    if (!hasProblemAt(path(key)) && (d.isZero() || d.isNegative())) {
      problem(key, path(key) + " (" + Durations.format(d) + ") must be greater than zero");
      return Duration.ofSeconds(1);
    }
    return d;
  }

  /** A duration that may be unset. */
  public Optional<Duration> optionalDuration(String key) {
    Optional<String> text = optionalString(key);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Durations.parse(text.get()));
    } catch (IllegalArgumentException e) {
      problem(key, path(key) + ": " + e.getMessage());
      return Optional.empty();
    }
  }

  /** A list of strings. A single string (as an environment override gives) is split on commas. */
  public List<String> stringList(String key) {
    String p = path(key);
    if (!root.hasPath(p)) {
      return List.of();
    }
    ConfigValue v = root.getValue(p);
    if (v.valueType() == ConfigValueType.STRING) {
      String s = (String) v.unwrapped();
      return Arrays.stream(s.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
    }
    try {
      return root.getStringList(p).stream().map(String::trim).toList();
    } catch (ConfigException e) {
      problem(key, p + " must be a list of strings (got " + raw(key) + ")");
      return List.of();
    }
  }

  /** An object of string values (labels, headers), in the order given. */
  public Map<String, String> stringMap(String key) {
    String p = path(key);
    if (!root.hasPath(p)) {
      return Map.of();
    }
    ConfigValue v = root.getValue(p);
    if (!(v instanceof ConfigObject obj)) {
      problem(key, p + " must be an object of names to strings (got " + raw(key) + ")");
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, ConfigValue> e : obj.entrySet()) {
      ConfigValueType type = e.getValue().valueType();
      if (type == ConfigValueType.NULL) {
        continue;
      }
      if (type == ConfigValueType.OBJECT || type == ConfigValueType.LIST) {
        problem(key, p + "." + e.getKey() + " must be a string, not " + describe(type));
        continue;
      }
      out.put(e.getKey(), String.valueOf(e.getValue().unwrapped()));
    }
    return out;
  }

  /**
   * Readers over the objects of the list at {@code key} (rules, object entries), in list order.
   * Element {@code i} is addressed as {@code key.i} in messages, e.g. {@code
   * sources.apexlog.transforms.0.action}; its {@link #root()} is the element alone. An element that
   * is not an object is recorded as a problem and skipped.
   */
  public List<ConfigReader> objectList(String key) {
    String p = path(key);
    if (!root.hasPath(p)) {
      return List.of();
    }
    ConfigValue v = root.getValue(p);
    if (!(v instanceof com.typesafe.config.ConfigList list)) {
      problem(key, p + " must be a list of objects (got " + raw(key) + ")");
      return List.of();
    }
    List<ConfigReader> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String element = p + "." + i;
      if (list.get(i) instanceof ConfigObject obj) {
        out.add(new ConfigReader(obj.toConfig().atPath(element), element, problems));
      } else {
        problems.add(
            new ConfigProblem(
                element, element + " must be an object, not " + describe(list.get(i).valueType())));
      }
    }
    return out;
  }

  /**
   * Like {@link #objectList(String)}, but an element may also be a bare string, read as the object
   * {@code {shorthandKey = element}} (so {@code ["Login", {name = API, sample = 0.5}]} is a list of
   * two objects with a {@code name}). A single comma-separated string (as an environment override
   * gives) is one shorthand element per item.
   */
  public List<ConfigReader> objectList(String key, String shorthandKey) {
    String p = path(key);
    if (!root.hasPath(p)) {
      return List.of();
    }
    ConfigValue v = root.getValue(p);
    List<ConfigValue> elements = new ArrayList<>();
    if (v.valueType() == ConfigValueType.STRING) {
      for (String s : stringList(key)) {
        elements.add(ConfigValueFactory.fromAnyRef(s));
      }
    } else if (v instanceof com.typesafe.config.ConfigList list) {
      elements.addAll(list);
    } else {
      problem(key, p + " must be a list of names or objects (got " + raw(key) + ")");
      return List.of();
    }
    List<ConfigReader> out = new ArrayList<>();
    for (int i = 0; i < elements.size(); i++) {
      String element = p + "." + i;
      ConfigValue e = elements.get(i);
      if (e instanceof ConfigObject obj) {
        out.add(new ConfigReader(obj.toConfig().atPath(element), element, problems));
      } else if (e.valueType() == ConfigValueType.STRING) {
        Config shorthand =
            ConfigValueFactory.fromMap(Map.of(shorthandKey, e.unwrapped())).toConfig();
        out.add(new ConfigReader(shorthand.atPath(element), element, problems));
      } else {
        problems.add(
            new ConfigProblem(
                element, element + " must be a name or an object, not " + describe(e.valueType())));
      }
    }
    return out;
  }

  /** The names set (to non-null values) directly in this section, sorted. */
  public Set<String> keys() {
    if (prefix.isEmpty() || !root.hasPath(prefix)) {
      return prefix.isEmpty() ? new TreeSet<>(root.root().keySet()) : Set.of();
    }
    Set<String> out = new TreeSet<>();
    root.getObject(prefix)
        .forEach(
            (k, v) -> {
              if (v.valueType() != ConfigValueType.NULL) {
                out.add(k);
              }
            });
    return out;
  }

  /**
   * A secret given inline ({@code key}) or read from a file ({@code key_file}, whitespace
   * stripped). The inline value wins; a blank value counts as missing.
   */
  public Optional<Secret> optionalSecret(String key) {
    Optional<String> inline = optionalString(key);
    if (inline.isPresent()) {
      return Optional.of(Secret.of(inline.get()));
    }
    Optional<String> file = optionalString(key + "_file");
    if (file.isEmpty()) {
      return Optional.empty();
    }
    try {
      String content = Files.readString(Path.of(file.get()), StandardCharsets.UTF_8).strip();
      if (content.isEmpty()) {
        problem(key + "_file", path(key + "_file") + " (" + file.get() + ") is empty");
        return Optional.empty();
      }
      return Optional.of(Secret.of(content));
    } catch (IOException | InvalidPathException e) {
      problem(
          key + "_file",
          path(key + "_file")
              + ": cannot read "
              + file.get()
              + " ("
              + e.getClass().getSimpleName()
              + ")");
      return Optional.empty();
    }
  }

  /** A secret that must be given, inline or as a file. */
  public Optional<Secret> requiredSecret(String key) {
    Optional<Secret> secret = optionalSecret(key);
    if (secret.isEmpty() && !hasProblemAt(path(key + "_file"))) {
      problem(
          key,
          path(key) + " is required: set it, or " + path(key + "_file") + " to a file holding it");
    }
    return secret;
  }

  private boolean hasProblemAt(String fullPath) {
    return problems.stream().anyMatch(p -> p.path().equals(fullPath));
  }

  private String raw(String key) {
    String p = path(key);
    if (!root.hasPathOrNull(p)) {
      return "nothing";
    }
    ConfigValue v = root.getValue(p);
    return switch (v.valueType()) {
      case OBJECT, LIST -> describe(v.valueType());
      case STRING -> "'" + v.unwrapped() + "'";
      default -> String.valueOf(v.unwrapped());
    };
  }

  private static String describe(ConfigValueType type) {
    return switch (type) {
      case OBJECT -> "an object";
      case LIST -> "a list";
      default -> type.name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
