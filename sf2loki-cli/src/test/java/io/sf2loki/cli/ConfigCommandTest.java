package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigCommandTest {

  @Test
  void exampleAndReferenceNeedNoConfigFile() {
    CliRun example = CliRun.of("config", "example");
    assertThat(example.exitCode()).isZero();
    assertThat(example.out()).contains("salesforce {").contains("REQUIRED: fill in");
    CliRun reference = CliRun.of("config", "reference");
    assertThat(reference.exitCode()).isZero();
    assertThat(reference.out()).startsWith("# Configuration reference").contains("| `url` | url |");
  }

  @Test
  void configIsAcceptedBeforeOrAfterTheCommand(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("typo.conf");
    Files.writeString(file, "sink.loki.ulr = x\n");
    CliRun before = CliRun.of("--config", file.toString(), "config", "check");
    CliRun middle = CliRun.of("config", "--config", file.toString(), "check");
    CliRun after = CliRun.of("config", "check", "--config", file.toString());
    for (CliRun run : new CliRun[] {before, middle, after}) {
      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.err())
          .startsWith("config check FAILED: ")
          .contains("unknown configuration key 'sink.loki.ulr' (did you mean 'sink.loki.url'?)");
    }
  }

  @Test
  void failureIsOneMessageWithoutAStackTraceUnlessDebug(@TempDir Path dir) {
    Path missing = dir.resolve("absent.conf");
    CliRun plain = CliRun.of("--config", missing.toString(), "config", "check");
    assertThat(plain.exitCode()).isEqualTo(2);
    assertThat(plain.err().strip())
        .isEqualTo(
            "config check FAILED: config file " + missing + " does not exist or is not a file");
    CliRun debug = CliRun.of("--debug", "--config", missing.toString(), "config", "check");
    assertThat(debug.err()).contains("at io.sf2loki.config.ConfigLoader");
  }

  @Test
  void unknownCommandIsAUsageError() {
    CliRun run = CliRun.of("frobnicate");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Unmatched argument at index 0: 'frobnicate'");
  }

  @Test
  void missingSubcommandIsAUsageError() {
    assertThat(CliRun.of("config").exitCode()).isEqualTo(2);
    assertThat(CliRun.of().exitCode()).isEqualTo(2);
  }

  @Test
  void versionPrintsTheBuildVersion() {
    CliRun run = CliRun.of("--version");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out().strip()).matches("sf2loki \\d+\\.\\d+\\.\\d+.*");
  }
}
