package io.sf2loki.cli.command;

import io.sf2loki.cli.migrate.Migration;
import io.sf2loki.cli.migrate.MigrationNote;
import io.sf2loki.cli.migrate.PythonConfigMigrator;
import io.sf2loki.config.ConfigDocs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code config check|example|reference|migrate}. */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description = "Validate the configuration or print its documentation.",
    synopsisSubcommandLabel = "(check | example | reference | migrate)")
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
    for (String warning : options.bindShards().topologyWarnings()) {
      options.environment().out().println("config check WARN: " + warning);
    }
    options.environment().out().println("config check OK");
    return 0;
  }

  /**
   * Prints an annotated example config in data-path order that passes {@code check} once its
   * secrets are filled, or with {@code --minimal} the shortest working file.
   */
  @Command(
      name = "example",
      mixinStandardHelpOptions = true,
      description = "Print an annotated example configuration.")
  int example(
      @Mixin GlobalOptions options,
      @Option(names = "--minimal", description = "Print only the shortest working configuration.")
          boolean minimal) {
    options
        .environment()
        .out()
        .print(
            minimal
                ? minimalExample()
                : ConfigDocs.exampleHocon(options.environment().configLoader().schema()));
    return 0;
  }

  private static String minimalExample() {
    try (InputStream in = ConfigCommand.class.getResourceAsStream("minimal.conf")) {
      if (in == null) {
        throw new IllegalStateException("minimal.conf is missing from the CLI jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the minimal example from the CLI jar", e);
    }
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

  /**
   * Converts a Python sf2loki YAML file to HOCON on standard output, a multi-org file to {@code
   * orgs = [...]} (or one org of it with {@code --org}). Standard error reports each Python key:
   * where it went, or that it has no equivalent, different semantics or a Python default written
   * out (those also as a comment at the top of the output). Exit 2 when Python itself would refuse
   * the file or {@code --org} names no org of it.
   */
  @Command(
      name = "migrate",
      mixinStandardHelpOptions = true,
      description = {
        "Convert a Python sf2loki YAML configuration to HOCON (standard output).",
        "Standard error names where each key went, and every key with no equivalent or a"
            + " different meaning."
      })
  int migrate(
      @Mixin GlobalOptions options,
      @Parameters(paramLabel = "FILE.yaml", description = "The Python sf2loki configuration.")
          Path file,
      @Option(
              names = "--org",
              paramLabel = "NAME",
              description =
                  "For a multi-org file: convert only this orgs[].name, as a single-org"
                      + " configuration (default: every org, as orgs = [...]).")
          String org) {
    String yaml;
    try {
      yaml = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CommandFailedException("cannot read " + file + ": " + e.getMessage(), e);
    }
    Migration migration =
        PythonConfigMigrator.migrate(file.toString(), yaml, Optional.ofNullable(org));
    options.environment().out().print(migration.hocon());
    for (MigrationNote note : migration.notes()) {
      options.environment().err().println("config migrate: " + note.line());
    }
    return 0;
  }
}
