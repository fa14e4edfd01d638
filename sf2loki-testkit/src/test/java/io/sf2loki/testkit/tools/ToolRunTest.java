package io.sf2loki.testkit.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolRunTest {

  @TempDir Path dir;

  @Test
  void capturesTheExitCodeAndBothOutputsOfAToolFedOnItsInput() throws Exception {
    ToolRun run =
        ToolRun.run(
            dir,
            Duration.ofSeconds(30),
            "käse\n",
            List.of("sh", "-c", "cat; echo warning >&2; pwd >&2; exit 3"));

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.succeeded()).isFalse();
    assertThat(run.stdout()).isEqualTo("käse\n");
    assertThat(run.stderr()).contains("warning").contains(dir.getFileName().toString());
    assertThat(run.describe()).contains("exited 3").contains("käse");
  }

  @Test
  void aToolThatOutlivesItsTimeoutIsKilledAndFailsTheTest() {
    assertThatThrownBy(
            () -> ToolRun.run(dir, Duration.ofMillis(200), "", List.of("sh", "-c", "sleep 30")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("did not finish within");
  }
}
