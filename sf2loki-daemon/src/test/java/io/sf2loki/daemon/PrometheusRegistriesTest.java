package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

class PrometheusRegistriesTest {

  @Test
  void buildInfoIsScrapedUnderItsDocumentedNameOnce() {
    PrometheusMeterRegistry registry = PrometheusRegistries.create("1.2.3");
    // The engine registers the same meter through Micrometer, as it does for any registry.
    Gauge.builder("sf2loki_build_info", () -> 1).tag("version", "1.2.3").register(registry);
    String scrape = registry.scrape();
    assertThat(scrape).contains("sf2loki_build_info{version=\"1.2.3\"} 1");
    assertThat(scrape).doesNotContain("sf2loki_build{");
    assertThat(scrape.lines().filter(l -> l.startsWith("sf2loki_build"))).hasSize(1);
  }

  @Test
  void aMeterRegisteredWithoutADescriptionIsScrapedWithItsHelpText() {
    PrometheusMeterRegistry registry = PrometheusRegistries.create("1.2.3");
    Counter.builder("sf2loki_auth_refreshes").register(registry).increment();

    assertThat(registry.scrape())
        .contains("# HELP sf2loki_auth_refreshes_total Successful Salesforce token mints");
  }

  @Test
  void aMeterRegisteredWithItsOwnDescriptionKeepsIt() {
    PrometheusMeterRegistry registry = PrometheusRegistries.create("1.2.3");
    Counter.builder("sf2loki_auth_refreshes")
        .description("the caller's own words")
        .register(registry)
        .increment();

    assertThat(registry.scrape())
        .contains("# HELP sf2loki_auth_refreshes_total the caller's own words");
  }
}
