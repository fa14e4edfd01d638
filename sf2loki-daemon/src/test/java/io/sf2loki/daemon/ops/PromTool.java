package io.sf2loki.daemon.ops;

import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.tools.ExternalTool;
import io.sf2loki.testkit.tools.ToolRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prometheus' own {@code promtool}, as the users run it on our rules and our {@code /metrics}:
 * found with {@link ExternalTool} (skipped when missing, failed under {@code
 * SF2LOKI_REQUIRE_TOOLS=1}).
 */
public final class PromTool {

  /** The variable that may name the binary. */
  public static final String ENV = "SF2LOKI_PROMTOOL";

  private static final String HINT =
      "apt-get install -y --no-install-recommends prometheus (Debian's package ships"
          + " /usr/bin/promtool)";

  private PromTool() {}

  /** {@code promtool ARGS...} in {@code workDir}, fed {@code stdin}. */
  public static ToolRun run(Path workDir, String stdin, List<String> args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ExternalTool.require("promtool", ENV, HINT).toString());
    command.addAll(args);
    return ToolRun.run(workDir, TestTiming.seconds(60), stdin, command);
  }

  /** {@code promtool check rules FILES...}. */
  public static ToolRun checkRules(List<Path> files) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("check", "rules"));
    files.forEach(f -> args.add(f.toAbsolutePath().toString()));
    return run(Path.of("."), "", args);
  }

  /** {@code promtool check metrics} on the text of a scrape. */
  public static ToolRun checkMetrics(String scrape) throws IOException, InterruptedException {
    return run(Path.of("."), scrape, List.of("check", "metrics"));
  }
}
