package io.sf2loki.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import io.sf2loki.spi.ConfigSection;
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
 * The {@link ConfigSection} over a Typesafe Config tree: reads typed values from one section of a
 * loaded configuration and <em>collects</em> problems instead of throwing, so that a user sees
 * every mistake at once with its key path.
 *
 * <p>Every getter returns a usable fallback when the value is wrong (and records why), so binding
 * code can read a whole section straight through and let {@link #throwIfInvalid()} decide at the
 * end. Defaults come from the modules' {@code reference.conf}; a key set to {@code null} there is
 * optional and unset. Providers see only the {@link ConfigSection} contract; the problem list and
 * Typesafe Config stay here.
 *
 * <p>Not thread-safe; one reader tree per load.
 */
public final class ConfigReader implements ConfigSection {

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

  @Override
  public ConfigReader root() {
    return new ConfigReader(root, "", problems);
  }

  @Override
  public ConfigReader section(String key) {
    return new ConfigReader(root, path(key), problems);
  }

  @Override
  public String path(String key) {
    return prefix.isEmpty() ? key : prefix + "." + key;
  }

  /** This section's own path ({@code ""} for the root). */
  public String sectionPath() {
    return prefix;
  }

  @Override
  public boolean isSet(String key) {
    return root.hasPath(path(key));
  }

  @Override
  public boolean isSetByUser(String key) {
    if (!root.hasPath(path(key))) {
      return false;
    }
    String resource = root.getValue(path(key)).origin().resource();
    return resource == null || !resource.endsWith("reference.conf");
  }

  @Override
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

  @Override
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

  @Override
  public String requiredString(String key) {
    Optional<String> value = optionalString(key);
    if (value.isEmpty() && !hasProblemAt(path(key))) {
      problem(key, path(key) + " must not be empty");
    }
    return value.orElse("");
  }

  @Override
  public String string(String key) {
    return optionalString(key).orElse("");
  }

  @Override
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

  @Override
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

  @Override
  public int intInRange(String key, int min, int max) {
    long v = longInRange(key, min, max);
    return (int) v;
  }

  @Override
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

  @Override
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

  @Override
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

  @Override
  public Duration positiveDuration(String key) {
    Duration d = duration(key);
    if (!hasProblemAt(path(key)) && (d.isZero() || d.isNegative())) {
      problem(key, path(key) + " (" + Durations.format(d) + ") must be greater than zero");
      return Duration.ofSeconds(1);
    }
    return d;
  }

  @Override
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

  @Override
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

  @Override
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

  @Override
  public List<ConfigSection> objectList(String key) {
    String p = path(key);
    if (!root.hasPath(p)) {
      return List.of();
    }
    ConfigValue v = root.getValue(p);
    if (!(v instanceof com.typesafe.config.ConfigList list)) {
      problem(key, p + " must be a list of objects (got " + raw(key) + ")");
      return List.of();
    }
    List<ConfigSection> out = new ArrayList<>();
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

  @Override
  public List<ConfigSection> objectList(String key, String shorthandKey) {
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
    List<ConfigSection> out = new ArrayList<>();
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

  @Override
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

  @Override
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

  @Override
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
