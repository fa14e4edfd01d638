package io.sf2loki.testkit.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class ExternalToolTest {

  private static final String HINT = "apt-get install -y --no-install-recommends prometheus";

  @TempDir Path dir;

  private Path executable(Path parent, String name) throws IOException {
    Files.createDirectories(parent);
    Path file = Files.writeString(parent.resolve(name), "#!/bin/sh\n");
    assertThat(file.toFile().setExecutable(true)).isTrue();
    return file;
  }

  @Test
  void theToolsOwnVariableWinsOverPath() throws IOException {
    Path named = executable(dir.resolve("named"), "promtool");
    executable(dir.resolve("bin"), "promtool");

    Path found =
        ExternalTool.resolve(
            "promtool",
            "SF2LOKI_PROMTOOL",
            HINT,
            Map.of("SF2LOKI_PROMTOOL", named.toString(), "PATH", dir.resolve("bin").toString()));

    assertThat(found).isEqualTo(named);
  }

  @Test
  void theFirstExecutableOnPathIsFound() throws IOException {
    Files.createDirectories(dir.resolve("first"));
    Files.writeString(dir.resolve("first").resolve("promtool"), "not executable");
    Path second = executable(dir.resolve("second"), "promtool");

    Path found =
        ExternalTool.resolve(
            "promtool",
            "SF2LOKI_PROMTOOL",
            HINT,
            Map.of("PATH", dir.resolve("first") + ":" + dir.resolve("second")));

    assertThat(found).isEqualTo(second);
  }

  @Test
  void aMissingToolSkipsTheTestWithTheInstallHint() {
    assertThatThrownBy(
            () ->
                ExternalTool.resolve(
                    "promtool", "SF2LOKI_PROMTOOL", HINT, Map.of("PATH", dir.toString())))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("promtool not found")
        .hasMessageContaining("SF2LOKI_PROMTOOL")
        .hasMessageContaining(HINT);
  }

  @Test
  void aMissingToolFailsTheTestWhenToolsAreRequired() {
    assertThatThrownBy(
            () ->
                ExternalTool.resolve(
                    "promtool",
                    "SF2LOKI_PROMTOOL",
                    HINT,
                    Map.of("PATH", dir.toString(), ExternalTool.REQUIRE_ENV, "1")))
        .isInstanceOf(AssertionError.class)
        .isNotInstanceOf(TestAbortedException.class)
        .hasMessageContaining(HINT)
        .hasMessageContaining(ExternalTool.REQUIRE_ENV);
  }

  @Test
  void aVariableNamingNoExecutableFailsEvenWhenToolsAreOptional() {
    assertThatThrownBy(
            () ->
                ExternalTool.resolve(
                    "promtool",
                    "SF2LOKI_PROMTOOL",
                    HINT,
                    Map.of("SF2LOKI_PROMTOOL", dir.resolve("nothing").toString())))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("SF2LOKI_PROMTOOL=");
  }
}
