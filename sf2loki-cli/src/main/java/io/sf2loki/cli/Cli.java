package io.sf2loki.cli;

import io.sf2loki.cli.command.CliEnvironment;
import io.sf2loki.cli.command.CommandFailedException;
import io.sf2loki.cli.command.GlobalOptions;
import io.sf2loki.cli.command.RootCommand;
import io.sf2loki.cli.migrate.PythonConfigException;
import io.sf2loki.cli.migrate.UnknownOrgException;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.spi.StoreException;
import picocli.CommandLine;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.ParseResult;

/**
 * Builds the command line and maps every outcome to the exit-code contract in one place: 0 success,
 * 1 an operation refused or failed, 2 a configuration or usage error. Expected failures print one
 * or two plain lines; a stack trace only with {@code --debug}.
 */
public final class Cli {

  /** Success. */
  public static final int OK = 0;

  /** An operation was refused or failed. */
  public static final int FAILED = 1;

  /** Configuration or usage error. */
  public static final int USAGE = 2;

  private final CliEnvironment environment;

  public Cli(CliEnvironment environment) {
    this.environment = environment;
  }

  /** Runs one command line and returns its exit code. */
  public int run(String... args) {
    GlobalOptions global = new GlobalOptions(environment);
    CommandLine cli = new CommandLine(RootCommand.class, new SharedOptionsFactory(global));
    cli.setOut(environment.out());
    cli.setErr(environment.err());
    cli.setExitCodeExceptionMapper(Cli::exitCode);
    cli.setExecutionExceptionHandler(
        (Exception e, CommandLine command, ParseResult parsed) -> report(e, command, global));
    int code = cli.execute(args);
    environment.out().flush();
    environment.err().flush();
    return code;
  }

  private int report(Exception e, CommandLine command, GlobalOptions global) {
    boolean check = "check".equals(command.getCommandName());
    String prefix =
        check && e instanceof ConfigInvalidException ? "config check FAILED: " : "sf2loki: ";
    environment.err().println(prefix + message(e));
    if (global.debug()) {
      e.printStackTrace(environment.err());
    }
    return exitCode(e);
  }

  private static String message(Exception e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }

  static int exitCode(Throwable e) {
    if (e instanceof ConfigInvalidException
        || e instanceof PythonConfigException
        || e instanceof UnknownOrgException
        || e instanceof CommandLine.ParameterException) {
      return USAGE;
    }
    if (e instanceof CommandFailedException || e instanceof StoreException) {
      return FAILED;
    }
    return FAILED;
  }

  /** Hands every command the same {@link GlobalOptions}, so {@code --config} may go anywhere. */
  private static final class SharedOptionsFactory implements IFactory {
    private final GlobalOptions global;
    private final IFactory fallback = CommandLine.defaultFactory();

    SharedOptionsFactory(GlobalOptions global) {
      this.global = global;
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
      if (type == GlobalOptions.class) {
        return type.cast(global);
      }
      return fallback.create(type);
    }
  }
}
