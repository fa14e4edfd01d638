package io.sf2loki.cli;

import io.sf2loki.cli.command.CliEnvironment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** Runs the real CLI in process and captures what it printed. */
record CliRun(int exitCode, String out, String err) {

  static CliRun of(String... args) {
    return withEnv(Map.of(), args);
  }

  static CliRun withEnv(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        new Cli(
                new CliEnvironment(
                    new PrintWriter(out), new PrintWriter(err), env, CliRun.class.getClassLoader()))
            .run(args);
    return new CliRun(code, out.toString(), err.toString());
  }
}
