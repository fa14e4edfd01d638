package io.sf2loki.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.EngineSettings;
import io.sf2loki.loki.LokiSinkConfig;
import io.sf2loki.loki.TimeWindowConfig;
import io.sf2loki.pipeline.PipelineSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The values code uses when nothing is configured (builders, library users) are the ones {@code
 * reference.conf} documents: each {@code defaults()} (the lanes', the pipeline's and the engine's
 * settings, the sink's time windows) is pinned against the bound defaults, so the two cannot drift
 * apart.
 */
class DefaultsMatchReferenceConfTest {

  private static ConfigReader section(String path) {
    return new ConfigLoader(DefaultsMatchReferenceConfTest.class.getClassLoader(), Map.of())
        .loadString("sink.loki.url = \"http://localhost:3100\"")
        .reader()
        .section(path);
  }

  private static ConfigReader sinkLoki() {
    return section("sink.loki");
  }

  @Test
  void laneDefaultsAreTheDocumentedOnes() {
    assertThat(LaneConfig.bind(sinkLoki())).isEqualTo(LaneConfig.defaults());
  }

  /**
   * The lanes, the drain budget and the commit interval are configuration keys; the join timeout
   * and the static labels are not (the labels are the deployment's, stamped by the composition
   * root).
   */
  @Test
  void pipelineDefaultsAreTheDocumentedOnes() {
    PipelineSettings defaults = PipelineSettings.defaults();
    assertThat(defaults.lanes()).isEqualTo(LaneConfig.bind(sinkLoki()));
    assertThat(defaults.laneOverrides()).isEmpty();
    assertThat(defaults.egress()).isEqualTo(EgressConfig.bind(sinkLoki()));
    assertThat(defaults.shutdownGrace())
        .isEqualTo(ServiceConfig.bind(section("service")).shutdownGrace());
    assertThat(defaults.streamingCommitInterval())
        .isEqualTo(section("state").duration("streaming_commit_interval"));
  }

  /** What the composition root binds from a configuration that sets none of their keys. */
  @Test
  void engineDefaultsAreWhatAConfigurationWithoutTheirKeysBinds() {
    Sf2LokiConfig config =
        Sf2LokiConfig.bind(
            ConfigTestSupport.loader().loadString(ConfigTestSupport.VALID),
            FakeProviders.standard());
    // The configuration gives the streaming lane its own flush interval; the library's defaults
    // (for embedding) run both lanes on the batch one.
    EngineSettings defaults = EngineSettings.defaults();
    assertThat(ConfiguredEngine.settings(config, Map.of()))
        .isEqualTo(
            defaults.withPipeline(
                defaults
                    .pipeline()
                    .withLane(
                        io.sf2loki.spi.Source.Lane.STREAMING,
                        LaneConfig.defaults().forStreaming())));
  }

  @Test
  void timeWindowDefaultsAreTheDocumentedOnes() {
    assertThat(LokiSinkConfig.bind(sinkLoki()).windows()).isEqualTo(TimeWindowConfig.defaults());
  }
}
