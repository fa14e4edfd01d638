package io.sf2loki.daemon;

import io.sf2loki.config.ConfigInvalidException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;

/**
 * {@code java -jar sf2loki-daemon.jar --config FILE [--check]}. Exit codes: 0 success, 1 failure, 2
 * configuration or usage error.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    Map<String, String> environment = System.getenv();
    System.exit(
        run(
            args,
            out,
            err,
            environment,
            Main.class.getClassLoader(),
            new DaemonService(environment)));
  }

  static int run(
      String[] args,
      PrintWriter out,
      PrintWriter err,
      Map<String, String> environment,
      ClassLoader classLoader,
      DaemonRunner runner) {
    DaemonCommand command = new DaemonCommand(out, environment, classLoader, runner);
    CommandLine cli = new CommandLine(command);
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parsed) -> {
          boolean configError = e instanceof ConfigInvalidException;
          err.println(
              (configError && command.check ? "config check FAILED: " : "sf2loki: ")
                  + e.getMessage());
          if (command.debug) {
            e.printStackTrace(err);
          }
          return configError ? 2 : 1;
        });
    int code = cli.execute(args);
    out.flush();
    err.flush();
    return code;
  }
}
