package io.sf2loki.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigResolver;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Loads configuration the documented way: the modules' {@code reference.conf} defaults, overridden
 * by the user's HOCON file, overridden by {@code SF2LOKI_} environment variables ({@code __}
 * separates path segments: {@code SF2LOKI_SINK__LOKI__URL} sets {@code sink.loki.url}). {@code
 * ${NAME}} in the file is replaced by the environment variable {@code NAME}; an unset one is an
 * error. Unknown keys are errors that name the nearest known key.
 *
 * <p>No network or store I/O happens here; only the config file and secret files are read.
 */
public final class ConfigLoader {

  /** Prefix of environment variables that override configuration keys. */
  public static final String ENV_PREFIX = "SF2LOKI_";

  private final ClassLoader classLoader;
  private final Map<String, String> environment;

  /**
   * @param classLoader where the modules' {@code reference.conf} files are found
   * @param environment the process environment (injected so tests control it)
   */
  public ConfigLoader(ClassLoader classLoader, Map<String, String> environment) {
    this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
    this.environment = Map.copyOf(environment);
  }

  /** The schema of every key the modules on the class path define. */
  public ConfigSchema schema() {
    return ConfigSchema.from(reference().root());
  }

  /**
   * Loads {@code file} (or only defaults and the environment when empty).
   *
   * @throws ConfigInvalidException with every problem found
   */
  public LoadedConfig load(Optional<Path> file) {
    Config user = ConfigFactory.empty();
    if (file.isPresent()) {
      Path path = file.get();
      if (!Files.isRegularFile(path)) {
        throw ConfigInvalidException.of(
            "", "config file " + path + " does not exist or is not a file");
      }
      try {
        user =
            ConfigFactory.parseFile(
                path.toFile(),
                ConfigParseOptions.defaults().setAllowMissing(false).setSyntax(ConfigSyntax.CONF));
      } catch (ConfigException e) {
        throw ConfigInvalidException.of("", "cannot parse " + path + ": " + e.getMessage());
      }
    }
    return load(user);
  }

  /** Loads configuration text, as if it were the user's file. */
  public LoadedConfig loadString(String hocon) {
    try {
      return load(ConfigFactory.parseString(hocon));
    } catch (ConfigException.Parse e) {
      throw ConfigInvalidException.of("", "cannot parse configuration: " + e.getMessage());
    }
  }

  private LoadedConfig load(Config user) {
    Config reference = reference();
    ConfigSchema schema = ConfigSchema.from(reference.root());
    Config overrides = environmentOverrides();
    List<ConfigProblem> problems = new ArrayList<>();
    UnknownKeys unknown = new UnknownKeys(schema);
    unknown.check(user.root(), "", "", problems);
    unknown.check(overrides.root(), "", "environment override ", problems);
    Config merged = overrides.withFallback(user).withFallback(reference);
    Config resolved;
    try {
      resolved =
          merged.resolve(
              ConfigResolveOptions.defaults()
                  .setUseSystemEnvironment(false)
                  .appendResolver(new EnvironmentResolver(environment)));
    } catch (ConfigException.UnresolvedSubstitution e) {
      problems.add(new ConfigProblem("", "unresolved substitution: " + e.getMessage()));
      throw new ConfigInvalidException(problems);
    }
    if (!problems.isEmpty()) {
      throw new ConfigInvalidException(problems);
    }
    return new LoadedConfig(resolved, schema);
  }

  private Config reference() {
    Config all =
        ConfigFactory.parseResourcesAnySyntax(
            classLoader,
            "reference.conf",
            ConfigParseOptions.defaults().setClassLoader(classLoader));
    Config ours = ConfigFactory.empty();
    for (String root : ConfigSchema.ROOTS) {
      if (all.hasPathOrNull(root)) {
        ours = ours.withFallback(all.withOnlyPath(root));
      }
    }
    return ours;
  }

  private Config environmentOverrides() {
    Config out = ConfigFactory.empty();
    for (Map.Entry<String, String> e : environment.entrySet()) {
      String name = e.getKey();
      if (!name.startsWith(ENV_PREFIX) || !name.contains("__")) {
        continue;
      }
      String[] segments = name.substring(ENV_PREFIX.length()).split("__");
      StringBuilder path = new StringBuilder();
      for (String segment : segments) {
        if (path.length() > 0) {
          path.append('.');
        }
        path.append(segment.toLowerCase(Locale.ROOT));
      }
      out =
          out.withValue(
              path.toString(),
              ConfigValueFactory.fromAnyRef(e.getValue(), "environment variable " + name));
    }
    return out;
  }

  private static final class EnvironmentResolver implements ConfigResolver {
    private final Map<String, String> environment;

    EnvironmentResolver(Map<String, String> environment) {
      this.environment = environment;
    }

    @Override
    public ConfigValue lookup(String path) {
      String value = environment.get(path);
      return value == null ? null : ConfigValueFactory.fromAnyRef(value, "environment " + path);
    }

    @Override
    public ConfigResolver withFallback(ConfigResolver fallback) {
      return this;
    }
  }
}
