package io.sf2loki.config;

import static io.sf2loki.config.ConfigTestSupport.VALID;
import static io.sf2loki.config.ConfigTestSupport.loader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code service.metrics.otlp} as the daemon's push reads it. */
class OtlpMetricsConfigTest {

  private static OtlpMetricsConfig bind(String hocon, Map<String, String> env) {
    return Sf2LokiConfig.bind(
            loader(env).loadString(VALID + "\n" + hocon), FakeProviders.standard())
        .service()
        .metricsOtlp();
  }

  private static List<String> problems(String hocon) {
    ConfigInvalidException e =
        assertThrows(ConfigInvalidException.class, () -> bind(hocon, Map.of()));
    return e.problems().stream().map(ConfigProblem::message).toList();
  }

  @Test
  void thePushIsOffByDefaultAndAimsAtALocalCollector() {
    OtlpMetricsConfig otlp = bind("", Map.of());
    assertThat(otlp.enabled()).isFalse();
    assertThat(otlp.url()).isEqualTo(URI.create("http://localhost:4318/v1/metrics"));
    assertThat(otlp.step()).isEqualTo(Duration.ofSeconds(60));
    assertThat(otlp.timeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(otlp.headers()).isEmpty();
    assertThat(otlp.resourceAttributes()).isEmpty();
  }

  @Test
  void headersTakeSecretsFromTheEnvironmentAndDottedAttributeNamesStayWhole() {
    OtlpMetricsConfig otlp =
        bind(
            """
            service.metrics.otlp {
              enabled = true
              headers { Authorization = "Bearer "${OTLP_TOKEN} }
              resource_attributes { "deployment.environment" = prod }
            }
            """,
            Map.of("OTLP_TOKEN", "s3cret"));
    assertThat(otlp.enabled()).isTrue();
    assertThat(otlp.headers()).isEqualTo(Map.of("Authorization", "Bearer s3cret"));
    assertThat(otlp.resourceAttributes()).isEqualTo(Map.of("deployment.environment", "prod"));
  }

  @Test
  void aUrlThatIsNotHttpAndATimeoutAboveTheStepAreProblems() {
    assertThat(problems("service.metrics.otlp { url = \"grpc://collector:4317\" }"))
        .singleElement()
        .asString()
        .startsWith("service.metrics.otlp.url must be an http:// or https:// URL");
    assertThat(problems("service.metrics.otlp { step = 5s, timeout = 10s }"))
        .singleElement()
        .asString()
        .startsWith(
            "service.metrics.otlp.timeout (10s) must not be above service.metrics.otlp.step (5s)");
  }
}
