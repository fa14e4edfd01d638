package io.sf2loki.cli.command;

import io.sf2loki.config.LoadedConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.orgs.Shards;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Options accepted before or after any command ({@code --config}, {@code --debug}). One instance is
 * shared by every command of a run: the launcher's picocli factory hands the same instance to every
 * {@code @Mixin}, so the position on the command line does not matter.
 */
public final class GlobalOptions {

  private final CliEnvironment environment;
  private Path config;
  private boolean debug;

  public GlobalOptions(CliEnvironment environment) {
    this.environment = environment;
  }

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "HOCON config file (defaults and SF2LOKI_ environment variables apply).")
  void setConfig(Path config) {
    if (config != null) { // picocli may re-apply a null initial value when entering a subcommand
      this.config = config;
    }
  }

  @Option(names = "--debug", description = "Print stack traces of failures.")
  void setDebug(boolean debug) {
    this.debug |= debug;
  }

  /** The config file given, if any. */
  public Optional<Path> configFile() {
    return Optional.ofNullable(config);
  }

  /** True when failures should print their stack trace. */
  public boolean debug() {
    return debug;
  }

  /** Where commands print and read. */
  public CliEnvironment environment() {
    return environment;
  }

  /** Loads the configuration without binding it. */
  public LoadedConfig loadConfig() {
    return environment.configLoader().load(configFile());
  }

  /** Loads and fully validates the configuration, resolving the providers (no I/O). */
  public Sf2LokiConfig bindConfig() {
    return Sf2LokiConfig.bind(loadConfig(), environment.providers());
  }

  /** Loads and validates a configuration of one org or several ({@code orgs}), as shards. */
  public Shards bindShards() {
    return Shards.bind(loadConfig(), environment.providers());
  }
}
