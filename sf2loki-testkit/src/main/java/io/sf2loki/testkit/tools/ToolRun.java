package io.sf2loki.testkit.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One finished run of an external tool: its command, exit code and captured output. Output and
 * input go through temporary files, so a tool that writes much before reading its input cannot
 * deadlock the test.
 *
 * @param command the command line that ran
 * @param exitCode the tool's exit code
 * @param stdout what it wrote to standard output (UTF-8)
 * @param stderr what it wrote to standard error (UTF-8)
 */
public record ToolRun(List<String> command, int exitCode, String stdout, String stderr) {

  /** Copies the command. */
  public ToolRun {
    command = List.copyOf(command);
  }

  /**
   * Runs {@code command} in {@code workDir} with {@code stdin} as its input, waiting at most {@code
   * timeout} (then it is killed and the test fails).
   */
  public static ToolRun run(Path workDir, Duration timeout, String stdin, List<String> command)
      throws IOException, InterruptedException {
    Path in = Files.createTempFile("sf2loki-tool", ".in");
    Path out = Files.createTempFile("sf2loki-tool", ".out");
    Path err = Files.createTempFile("sf2loki-tool", ".err");
    try {
      Files.writeString(in, stdin, StandardCharsets.UTF_8);
      Process process =
          new ProcessBuilder(command)
              .directory(workDir.toFile())
              .redirectInput(in.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError(String.join(" ", command) + " did not finish within " + timeout);
      }
      return new ToolRun(
          command,
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(in);
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** Whether the tool exited 0. */
  public boolean succeeded() {
    return exitCode == 0;
  }

  /** The command, its exit code and both outputs, for an assertion message. */
  public String describe() {
    return String.join(" ", command)
        + " exited "
        + exitCode
        + "\n--- stdout ---\n"
        + stdout
        + "\n--- stderr ---\n"
        + stderr;
  }
}
