package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.spi.SinkProvider;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class OtlpSinkConfigTest {

  static OtlpSinkConfig bind(String hocon) {
    ConfigReader r =
        new ConfigLoader(OtlpSinkConfigTest.class.getClassLoader(), Map.of())
            .loadString(hocon)
            .reader();
    OtlpSinkConfig config = OtlpSinkConfig.bind(r.section("sink.otlp"));
    r.throwIfInvalid();
    return config;
  }

  @Test
  void serviceLoaderFindsTheProviderOfTypeOtlp() {
    assertThat(ServiceLoader.load(SinkProvider.class).stream().map(p -> p.get().type()))
        .contains(OtlpSinkProvider.TYPE);
  }

  @Test
  void theDefaultsExportGzippedProtobufToTheLogsPathAsServiceSalesforce() {
    OtlpSinkConfig c = bind("sink.otlp.url = \"http://loki:3100/otlp\"");

    assertThat(c.logsUrl()).hasToString("http://loki:3100/otlp/v1/logs");
    assertThat(c.encoding()).isEqualTo(OtlpSinkConfig.Encoding.PROTOBUF);
    assertThat(c.compression()).isEqualTo(OtlpSinkConfig.Compression.GZIP);
    assertThat(c.serviceName()).isEqualTo("salesforce");
    assertThat(c.serviceNamespace()).isEmpty();
    assertThat(c.deadLetterFile()).isEmpty();
  }

  @Test
  void jsonWithoutCompressionAndAResourceAreBound() {
    OtlpSinkConfig c =
        bind(
            """
            sink.otlp {
              url = "http://collector:4318/v1/logs"
              encoding = json
              compression = none
              service_namespace = acme
              deployment_environment = prod
              headers { "X-Api-Key" = k }
            }
            """);

    assertThat(c.encoding()).isEqualTo(OtlpSinkConfig.Encoding.JSON);
    assertThat(c.compression()).isEqualTo(OtlpSinkConfig.Compression.NONE);
    assertThat(c.serviceNamespace()).contains("acme");
    assertThat(c.environment()).isEqualTo(Optional.of("prod"));
    assertThat(OtlpHttpTransport.headers(c)).containsEntry("X-Api-Key", "k");
  }

  @Test
  void basicAuthUsesTheTenantAsUserAndBearerIsMutuallyExclusiveWithIt() {
    OtlpSinkConfig c =
        bind("sink.otlp { url = \"http://c:4318\", tenant_id = \"42\", auth_token = \"t\" }");
    assertThat(OtlpHttpTransport.headers(c))
        .containsEntry("Authorization", "Basic NDI6dA==")
        .doesNotContainKey("X-Scope-OrgID");

    assertThatThrownBy(
            () -> bind("sink.otlp { url = \"http://c:4318\", auth_token = a, bearer_token = b }"))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("mutually exclusive");
  }

  @Test
  void aTenantAloneIsSentAsXScopeOrgId() {
    OtlpSinkConfig c = bind("sink.otlp { url = \"http://c:4318\", tenant_id = \"42\" }");

    assertThat(OtlpHttpTransport.headers(c)).containsEntry("X-Scope-OrgID", "42");
  }

  @Test
  void contentHeadersAndLabelsOutsideTheAllowlistAreRefused() {
    assertThatThrownBy(
            () ->
                bind(
                    "sink.otlp { url = \"http://c:4318\", headers { Content-Type = x },"
                        + " labels { team = a } }"))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("sink.otlp.headers.Content-Type cannot be set")
        .hasMessageContaining("sink.otlp.labels.team is not an allowed label");
  }

  @Test
  void theGzipLevelIsOneUnlessSetAndOneToNine() {
    assertThat(bind("sink.otlp.url = \"http://c:4318\"").compressionLevel()).isEqualTo(1);
    assertThat(
            bind("sink.otlp { url = \"http://c:4318\", compression_level = 6 }").compressionLevel())
        .isEqualTo(6);
    assertThatThrownBy(() -> bind("sink.otlp { url = \"http://c:4318\", compression_level = 10 }"))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("sink.otlp.compression_level");
  }

  @Test
  void zstdAndLz4AreChosenByName() {
    assertThat(bind("sink.otlp { url = \"http://c:4318\", compression = zstd }").compression())
        .isEqualTo(OtlpSinkConfig.Compression.ZSTD);
    assertThat(bind("sink.otlp { url = \"http://c:4318\", compression = lz4 }").compression())
        .isEqualTo(OtlpSinkConfig.Compression.LZ4);
    assertThatThrownBy(() -> bind("sink.otlp { url = \"http://c:4318\", compression = snappy }"))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("sink.otlp.compression must be one of gzip, lz4, none, zstd");
  }

  @Test
  void theZstdLevelGoesToNineteen() {
    assertThat(
            bind("sink.otlp { url = \"http://c:4318\", compression = zstd, compression_level = 19 }")
                .compressionLevel())
        .isEqualTo(19);
    assertThatThrownBy(() -> bind("sink.otlp { url = \"http://c:4318\", compression_level = 19 }"))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("sink.otlp.compression_level = 19 is out of range for gzip (1 to 9)");
  }

  @Test
  void aMissingUrlIsRefused() {
    assertThatThrownBy(() -> bind("sink.otlp.encoding = json"))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("sink.otlp.url");
  }

  @Test
  void planningAgainstALokisTimeWindowsIsOffByDefault() {
    assertThat(bind("sink.otlp.url = \"http://collector:4318\"").loki()).isEmpty();
  }

  @Test
  void planningOnIndexesEventTypeSourceAndLateByDefault() {
    OtlpSinkConfig c = bind("sink.otlp { url = \"http://loki:3100/otlp\", loki.enabled = true }");

    assertThat(c.loki())
        .hasValueSatisfying(
            l -> assertThat(l.indexAttributes()).containsExactly("event_type", "source", "late"));
  }

  @Test
  void routingLateEntriesNeedsTheLateAttributeIndexed() {
    assertThatThrownBy(
            () ->
                bind(
                    """
                    sink.otlp {
                      url = "http://loki:3100/otlp"
                      loki { enabled = true, index_attributes = [event_type, source] }
                    }
                    """))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("sink.otlp.loki.late_policy = route needs \"late\" in")
        .hasMessageContaining("sink.otlp.loki.index_attributes");
  }

  @Test
  void withoutRoutingTheLateAttributeNeedNotBeIndexed() {
    OtlpSinkConfig c =
        bind(
            """
            sink.otlp {
              url = "http://loki:3100/otlp"
              loki { enabled = true, index_attributes = [event_type], late_policy = retimestamp }
            }
            """);

    assertThat(c.loki()).isPresent();
  }

  @Test
  void theWindowKeysAreCheckedAsUnderSinkLokiEvenWhenPlanningIsOff() {
    assertThatThrownBy(
            () -> bind("sink.otlp { url = \"http://c:4318\", loki.late_policy = sometimes }"))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("sink.otlp.loki.late_policy");
  }
}
