package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;

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
}
