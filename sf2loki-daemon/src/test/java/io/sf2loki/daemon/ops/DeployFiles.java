package io.sf2loki.daemon.ops;

import io.sf2loki.daemon.MetricsReference;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** Where the pack's files are, and how they are read. */
final class DeployFiles {

  static final Path DEPLOY = MetricsReference.ROOT.resolve("deploy");
  static final Path PROMETHEUS = DEPLOY.resolve("prometheus");
  static final Path PROMETHEUS_TESTS = PROMETHEUS.resolve("tests");
  static final Path GRAFANA = DEPLOY.resolve("grafana");
  static final Path LOKI = DEPLOY.resolve("loki");
  static final Path OBSERVABILITY = MetricsReference.ROOT.resolve(Path.of("docs", "observability"));

  private DeployFiles() {}

  /** The files directly in {@code dir} whose names end in {@code suffix}, sorted. */
  static List<Path> list(Path dir, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> found =
          files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
      if (found.isEmpty()) {
        throw new AssertionError("no *" + suffix + " in " + dir);
      }
      return found;
    }
  }

  /** A YAML document as maps and lists (no tags, no custom types). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> yaml(Path file) throws IOException {
    try (Reader in = Files.newBufferedReader(file)) {
      return (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
    }
  }

  /** {@code value} as a list of maps (a YAML sequence of mappings); empty when absent. */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> maps(Object value) {
    return value == null ? List.of() : (List<Map<String, Object>>) value;
  }

  /** {@code value} as a map of strings (a YAML mapping of scalars); empty when absent. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object value) {
    return value == null ? Map.of() : (Map<String, Object>) value;
  }
}
