package io.sf2loki.cli;

import io.sf2loki.cli.command.CliEnvironment;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** {@code java -jar sf2loki-cli.jar [--config FILE] COMMAND ...}. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    CliEnvironment environment =
        new CliEnvironment(
            new PrintWriter(System.out, true, StandardCharsets.UTF_8),
            new PrintWriter(System.err, true, StandardCharsets.UTF_8),
            System.getenv(),
            Main.class.getClassLoader());
    System.exit(new Cli(environment).run(args));
  }
}
