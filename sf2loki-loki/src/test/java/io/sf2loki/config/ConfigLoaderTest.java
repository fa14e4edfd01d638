package io.sf2loki.config;

import static io.sf2loki.config.ConfigTestSupport.VALID;
import static io.sf2loki.config.ConfigTestSupport.loader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

  @Test
  void mistypedKeyIsAnErrorNamingTheNearestKnownKey() {
    assertThatThrownBy(() -> loader().loadString(VALID + "sink.loki.tenat_id = acme\n"))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("unknown configuration key 'sink.loki.tenat_id'")
        .hasMessageContaining("did you mean 'sink.loki.tenant_id'?");
  }

  @Test
  void unknownTopLevelSectionIsAnError() {
    assertThatThrownBy(() -> loader().loadString(VALID + "servce { http_port = 1 }\n"))
        .hasMessageContaining("unknown configuration key 'servce.http_port'")
        .hasMessageContaining("did you mean 'service.http_port'?");
  }

  @Test
  void everyUnknownKeyIsReportedAtOnce() {
    ConfigInvalidException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ConfigInvalidException.class,
            () -> loader().loadString(VALID + "sink.loki.urll = x\nservice.http_prt = 1\n"));
    assertThat(e.problems())
        .extracting(ConfigProblem::path)
        .containsExactly("service.http_prt", "sink.loki.urll");
  }

  @Test
  void userChosenNamesUnderAMapKeyAreNotUnknown() {
    LoadedConfig loaded = loader().loadString(VALID + "sink.loki.labels { environment = prod }\n");
    assertThat(loaded.resolved().getString("sink.loki.labels.environment")).isEqualTo("prod");
  }

  @Test
  void secretFileTwinIsAKnownKey() {
    LoadedConfig loaded = loader().loadString(VALID + "sink.loki.auth_token_file = /x\n");
    assertThat(loaded.resolved().getString("sink.loki.auth_token_file")).isEqualTo("/x");
  }

  @Test
  void environmentOverridesTheFileWithDoubleUnderscoreNesting() {
    LoadedConfig loaded =
        loader(Map.of("SF2LOKI_SINK__LOKI__URL", "http://loki.internal:3100")).loadString(VALID);
    assertThat(loaded.resolved().getString("sink.loki.url")).isEqualTo("http://loki.internal:3100");
  }

  @Test
  void environmentOverrideOfAnUnknownKeyIsAnError() {
    assertThatThrownBy(() -> loader(Map.of("SF2LOKI_SINK__LOKI__URI", "x")).loadString(VALID))
        .hasMessageContaining("unknown configuration environment override key 'sink.loki.uri'")
        .hasMessageContaining("did you mean 'sink.loki.url'?");
  }

  @Test
  void environmentVariablesWithoutNestingAreNotOverrides() {
    LoadedConfig loaded = loader(Map.of("SF2LOKI_HOME", "/opt")).loadString(VALID);
    assertThat(loaded.resolved().hasPath("home")).isFalse();
  }

  @Test
  void substitutionReadsTheEnvironment() {
    LoadedConfig loaded =
        loader(Map.of("LOKI_HOST", "loki.prod"))
            .loadString(VALID + "sink.loki.tenant_id = ${LOKI_HOST}\n");
    assertThat(loaded.resolved().getString("sink.loki.tenant_id")).isEqualTo("loki.prod");
  }

  @Test
  void unsetSubstitutionIsAnError() {
    assertThatThrownBy(() -> loader().loadString(VALID + "sink.loki.tenant_id = ${NOPE}\n"))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("NOPE");
  }

  @Test
  void syntaxErrorNamesTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.conf");
    Files.writeString(file, "sink { loki { url = \n");
    assertThatThrownBy(() -> loader().load(Optional.of(file)))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("cannot parse " + file);
  }

  @Test
  void missingFileIsAnError(@TempDir Path dir) {
    Path file = dir.resolve("absent.conf");
    assertThatThrownBy(() -> loader().load(Optional.of(file)))
        .hasMessageContaining(file + " does not exist");
  }

  @Test
  void sectionGivenAScalarIsAnError() {
    assertThatThrownBy(() -> loader().loadString(VALID + "service = 3\n"))
        .hasMessageContaining("service must be an object");
  }
}
