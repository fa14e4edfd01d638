package io.sf2loki.cli.command;

import io.sf2loki.config.ConfigLoader;
import io.sf2loki.registry.Providers;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Objects;

/**
 * What commands may touch of the outside world, injected so tests run the real commands in process.
 *
 * @param out standard output
 * @param err standard error
 * @param environment the process environment (for {@code SF2LOKI_} overrides)
 * @param classLoader where reference.conf files and providers are found
 */
public record CliEnvironment(
    PrintWriter out, PrintWriter err, Map<String, String> environment, ClassLoader classLoader) {

  public CliEnvironment {
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
    environment = Map.copyOf(environment);
    Objects.requireNonNull(classLoader, "classLoader");
  }

  /** A config loader over this environment. */
  public ConfigLoader configLoader() {
    return new ConfigLoader(classLoader, environment);
  }

  /** The providers on the class path. */
  public Providers providers() {
    return Providers.discover(classLoader);
  }
}
