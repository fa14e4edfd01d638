package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code examples/*.conf} passes {@code --check}, so the shipped examples cannot rot. The
 * environment the examples document is supplied here: secret files through {@code SF2LOKI_}
 * overrides of their {@code *_file} keys, and the variables the files substitute.
 */
class ExampleConfigsTest {

  private static final Path EXAMPLES = Path.of("..", "examples");

  @TempDir Path dir;

  static List<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      return files.filter(p -> p.toString().endsWith(".conf")).sorted().toList();
    }
  }

  @ParameterizedTest
  @MethodSource("examples")
  void examplePassesCheck(Path example) throws Exception {
    ConfigCheck.Result check = ConfigCheck.check(example, environment());
    assertThat(check.err()).isEmpty();
    assertThat(check.code()).isZero();
    assertThat(check.out()).contains("config check OK").doesNotContain("WARN");
  }

  @org.junit.jupiter.api.Test
  void checkWarnsAboutATopologyThatCannotBeSafeAndStillExitsZero() throws Exception {
    Path config = dir.resolve("unsafe.conf");
    String pair = Files.readString(EXAMPLES.resolve("file-lease-pair.conf"));
    Files.writeString(
        config, pair + "\nstate.file.path = \"/tmp/state.json\"\nservice.shutdown_grace = 40s\n");
    ConfigCheck.Result check = ConfigCheck.check(config, environment());
    assertThat(check.code()).isZero();
    assertThat(check.out())
        .contains("config check WARN: state.file.path (/tmp/state.json) is under a node-local")
        .contains("config check WARN: state.file.path (/tmp/state.json) is not in the directory")
        .contains("config check WARN: service.shutdown_grace (40s) is not below the lease duration")
        .endsWith("config check OK\n");
  }

  @org.junit.jupiter.api.Test
  void theThreeTopologiesAndTheDemoAreShipped() throws IOException {
    assertThat(examples().stream().map(p -> p.getFileName().toString()))
        .contains(
            "demo.conf",
            "single-instance.conf",
            "file-lease-pair.conf",
            "kubernetes.conf",
            "multi-org.conf");
  }

  private Map<String, String> environment() throws Exception {
    return ConfigCheck.documentedEnvironment(dir);
  }
}
