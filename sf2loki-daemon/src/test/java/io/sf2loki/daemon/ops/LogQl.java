package io.sf2loki.daemon.ops;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.tools.ExternalTool;
import io.sf2loki.testkit.tools.ToolRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opentest4j.TestAbortedException;

/**
 * LogQL as Grafana parses it: deploy/tools/logql-check/check.mjs runs {@code @grafana/lezer-logql}
 * (installed with {@code npm ci} from the committed lock file, once per JVM) over expressions and
 * reports, for each, the parse errors and what it names. Node.js and npm are prerequisites of the
 * build, so this check never skips: a missing {@code node} or {@code npm} fails it.
 */
final class LogQl {

  static final Path TOOL = DeployFiles.DEPLOY.resolve(Path.of("tools", "logql-check"));
  private static final String HINT =
      "Node.js 18+ with npm (Debian: apt-get install -y nodejs npm), which the build needs for"
          + " the LogQL check";
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static boolean installed;

  private LogQl() {}

  /** A stream matcher: {@code label op "value"}. */
  record Matcher(String label, String op, String value) {}

  /** A label a parser stage extracts: {@code label="field"} (the field is the label for short). */
  record Extracted(String label, String field) {}

  /** A parse error: where, and the text around it. */
  record Error(int at, String near) {}

  /**
   * What one expression holds.
   *
   * @param id the caller's name for it
   * @param errors the parse errors (none for a valid expression)
   * @param selectors the stream selectors, each a list of matchers
   * @param extracted the labels parser stages extract explicitly
   * @param parsers the parser stages ({@code json}, {@code logfmt}, ...)
   * @param referenced the labels it filters, groups by, unwraps, keeps, drops or formats
   * @param ranges the range durations ({@code [1h]})
   * @param offsets the offset durations ({@code offset 6h})
   */
  record Parsed(
      String id,
      List<Error> errors,
      List<List<Matcher>> selectors,
      List<Extracted> extracted,
      List<String> parsers,
      List<String> referenced,
      List<String> ranges,
      List<String> offsets) {}

  /** Parses every expression of {@code expressions} (by id), in one run of the checker. */
  static List<Parsed> parse(Map<String, String> expressions)
      throws IOException, InterruptedException {
    Path node = tool("node");
    install();
    List<Map<String, String>> input = new ArrayList<>();
    expressions.forEach((id, expr) -> input.add(Map.of("id", id, "expr", expr)));
    ToolRun run =
        ToolRun.run(
            TOOL,
            TestTiming.seconds(60),
            JSON.writeValueAsString(input),
            List.of(node.toString(), "check.mjs"));
    if (!run.succeeded()) {
      throw new AssertionError(run.describe());
    }
    return JSON.readValue(run.stdout(), new TypeReference<List<Parsed>>() {});
  }

  /** {@link #parse} of one expression. */
  static Parsed parse(String expression) throws IOException, InterruptedException {
    Map<String, String> one = new LinkedHashMap<>();
    one.put("expression", expression);
    return parse(one).get(0);
  }

  /** {@code npm ci} unless node_modules is newer than the lock file (a previous install). */
  private static synchronized void install() throws IOException, InterruptedException {
    if (installed) {
      return;
    }
    Path marker = TOOL.resolve(Path.of("node_modules", ".package-lock.json"));
    Path lock = TOOL.resolve("package-lock.json");
    if (!Files.exists(marker)
        || Files.getLastModifiedTime(marker).compareTo(Files.getLastModifiedTime(lock)) < 0) {
      ToolRun ci =
          ToolRun.run(
              TOOL,
              TestTiming.seconds(300),
              "",
              List.of(tool("npm").toString(), "ci", "--no-audit", "--no-fund", "--prefer-offline"));
      if (!ci.succeeded()) {
        throw new AssertionError("npm ci in " + TOOL + " failed:\n" + ci.describe());
      }
    }
    installed = true;
  }

  private static Path tool(String name) {
    try {
      return ExternalTool.require(name, "SF2LOKI_" + name.toUpperCase(java.util.Locale.ROOT), HINT);
    } catch (TestAbortedException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }
}
