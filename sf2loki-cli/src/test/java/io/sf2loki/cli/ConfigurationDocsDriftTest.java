package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/configuration.md is generated; this fails when a reference.conf changed without it. */
class ConfigurationDocsDriftTest {

  @Test
  void committedConfigurationReferenceMatchesTheCode() throws Exception {
    Path docs = Path.of("..", "docs", "configuration.md");
    String generated = CliRun.of("config", "reference").out();
    assertThat(Files.readString(docs))
        .as("docs/configuration.md is stale: run `just docs` and commit the result")
        .isEqualTo(generated);
  }
}
