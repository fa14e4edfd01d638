package io.sf2loki.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class ConfigSchemaTest {

  private static final Set<String> TYPES =
      Set.of("string", "int", "bool", "duration", "bytes", "list", "map", "secret", "path", "url");

  private final ConfigSchema schema = ConfigTestSupport.loader().schema();

  @Test
  void everyKeyHasADescriptionAndAKnownType() {
    assertThat(schema.keys())
        .isNotEmpty()
        .allSatisfy(
            k -> {
              assertThat(k.description()).as(k.path() + " description").isNotBlank();
              assertThat(TYPES).as(k.path() + " type").contains(k.type());
            });
  }

  @Test
  void unsetOptionalKeysHaveNoDefault() {
    assertThat(schema.key("salesforce.org_id").orElseThrow().defaultValue()).isEmpty();
    assertThat(schema.key("service.http_port").orElseThrow().defaultValue()).contains("8080");
  }

  @Test
  void secretsAcceptAFileTwin() {
    assertThat(schema.writablePaths())
        .contains("salesforce.client_secret", "salesforce.client_secret_file");
  }

  @Test
  void referenceDocumentsEveryKey() {
    String markdown = ConfigDocs.referenceMarkdown(schema);
    assertThat(schema.keys()).allSatisfy(k -> assertThat(markdown).contains("| `" + k.name()));
    assertThat(markdown).contains("## `sink.loki.batch`").contains("SF2LOKI_SINK__LOKI__URL");
  }
}
