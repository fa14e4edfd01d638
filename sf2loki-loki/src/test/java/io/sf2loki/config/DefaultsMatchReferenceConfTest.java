package io.sf2loki.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.loki.LokiSinkConfig;
import io.sf2loki.loki.TimeWindowConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The values code uses when nothing is configured (builders, library users) are the ones {@code
 * reference.conf} documents: each {@code defaults()} is pinned against the bound defaults, so the
 * two cannot drift apart.
 */
class DefaultsMatchReferenceConfTest {

  private static ConfigReader sinkLoki() {
    return new ConfigLoader(DefaultsMatchReferenceConfTest.class.getClassLoader(), Map.of())
        .loadString("sink.loki.url = \"http://localhost:3100\"")
        .reader()
        .section("sink.loki");
  }

  @Test
  void laneDefaultsAreTheDocumentedOnes() {
    assertThat(LaneConfig.bind(sinkLoki())).isEqualTo(LaneConfig.defaults());
  }

  @Test
  void timeWindowDefaultsAreTheDocumentedOnes() {
    assertThat(LokiSinkConfig.bind(sinkLoki()).windows()).isEqualTo(TimeWindowConfig.defaults());
  }
}
