package io.sf2loki.cli.command;

import io.sf2loki.config.BuildInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Mixin;

/** {@code sf2loki-cli}: the operator's tool. Requires a subcommand. */
@Command(
    name = "sf2loki-cli",
    mixinStandardHelpOptions = true,
    versionProvider = RootCommand.Version.class,
    description = "Operate sf2loki: validate and document config, inspect and repair state.",
    subcommands = {
      ConfigCommand.class,
      DoctorCommand.class,
      StateCommand.class,
      LeaseCommand.class,
      DeadLetterCommand.class,
      BackfillCommand.class
    },
    synopsisSubcommandLabel = "COMMAND")
public final class RootCommand {

  @Mixin GlobalOptions global;

  /** {@code --version}: the real build version. */
  public static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"sf2loki " + BuildInfo.version()};
    }
  }
}
