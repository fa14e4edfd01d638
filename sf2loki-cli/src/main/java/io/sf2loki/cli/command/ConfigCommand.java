package io.sf2loki.cli.command;

import io.sf2loki.config.ConfigDocs;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.TopologyWarnings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code config check|example|reference}. */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description = "Validate the configuration or print its documentation.",
    synopsisSubcommandLabel = "(check | example | reference)")
public final class ConfigCommand {

  @Mixin GlobalOptions global;

  /**
   * Validates every key and the provider selection offline; exit 0 or 2. Topologies that validate
   * but cannot be safe are printed as {@code config check WARN: ...} lines (exit still 0).
   */
  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description = "Validate the configuration (no network, no store access). Exit 0 or 2.")
  int check(@Mixin GlobalOptions options) {
    Sf2LokiConfig config = options.bindConfig();
    for (String warning : TopologyWarnings.of(config)) {
      options.environment().out().println("config check WARN: " + warning);
    }
    options.environment().out().println("config check OK");
    return 0;
  }

  /** Prints an annotated example config that passes {@code check} once its secrets are filled. */
  @Command(
      name = "example",
      mixinStandardHelpOptions = true,
      description = "Print an annotated example configuration.")
  int example(@Mixin GlobalOptions options) {
    options
        .environment()
        .out()
        .print(ConfigDocs.exampleHocon(options.environment().configLoader().schema()));
    return 0;
  }

  /** Prints the Markdown reference of every key. */
  @Command(
      name = "reference",
      mixinStandardHelpOptions = true,
      description = "Print the Markdown reference of every configuration key.")
  int reference(@Mixin GlobalOptions options) {
    options
        .environment()
        .out()
        .print(ConfigDocs.referenceMarkdown(options.environment().configLoader().schema()));
    return 0;
  }
}
