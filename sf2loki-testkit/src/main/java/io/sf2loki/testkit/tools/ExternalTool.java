package io.sf2loki.testkit.tools;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds an external tool a test runs ({@code promtool}, {@code kubectl}, ...): the path in the
 * tool's own environment variable when set, else the first executable of that name on {@code PATH}.
 * A tool that is missing skips the test with a JUnit assumption that says how to install it, unless
 * {@value #REQUIRE_ENV}{@code =1} is set (as {@code .ci/run} does after installing them): then a
 * missing tool fails the test, so the gate cannot go green by skipping. A tool variable that names
 * no executable fails the test always: it is a mistake, not a missing install.
 */
public final class ExternalTool {

  /** The environment variable that turns a missing tool from a skip into a failure. */
  public static final String REQUIRE_ENV = "SF2LOKI_REQUIRE_TOOLS";

  private ExternalTool() {}

  /**
   * The executable {@code name}, from {@code envVar} or {@code PATH}; skips or fails the calling
   * test when it is missing (see the class comment).
   *
   * @param name the binary's file name, e.g. {@code promtool}
   * @param envVar the variable that may name the binary's path, e.g. {@code SF2LOKI_PROMTOOL}
   * @param installHint how to install it, for the skip or failure message
   */
  public static Path require(String name, String envVar, String installHint) {
    return resolve(name, envVar, installHint, System.getenv());
  }

  /** {@link #require} against the given environment instead of this process's. */
  static Path resolve(String name, String envVar, String installHint, Map<String, String> env) {
    Optional<String> configured = nonBlank(env.get(envVar));
    if (configured.isPresent()) {
      Path path = Path.of(configured.get());
      if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
        throw new AssertionError(envVar + "=" + path + " is not an executable file");
      }
      return path;
    }
    Optional<Path> onPath = onPath(name, env.getOrDefault("PATH", ""));
    if (onPath.isPresent()) {
      return onPath.get();
    }
    String missing =
        name + " not found on PATH (or set " + envVar + " to its path); install it: " + installHint;
    if (nonBlank(env.get(REQUIRE_ENV)).filter(v -> v.equals("1") || v.equals("true")).isPresent()) {
      throw new AssertionError(missing + " (required: " + REQUIRE_ENV + " is set)");
    }
    return Assumptions.abort(missing);
  }

  private static Optional<Path> onPath(String name, String path) {
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isBlank()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static Optional<String> nonBlank(String value) {
    return Optional.ofNullable(value).map(String::strip).filter(v -> !v.isEmpty());
  }
}
