package io.sf2loki.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.pipeline.FakeCheckpointStore;
import io.sf2loki.pipeline.PipelineSettings;
import io.sf2loki.pipeline.ScriptedSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The engine's builder derives one settings value and keeps nothing of it alive. */
class EngineSettingsTest {

  private static final LaneConfig SMALL =
      LaneConfig.defaults().withBatch(10, 1_048_576, Duration.ofMillis(50), 100, 0);

  private static Engine.Builder builder() {
    return Engine.builder(
        () -> {
          throw new AssertionError("these engines never run");
        },
        new FakeCheckpointStore(),
        new ScriptedSink(),
        List::of,
        Environments.engine(new SimpleMeterRegistry()));
  }

  @Test
  void theShortcutsDeriveTheSameValueAsTheWithers() {
    Engine engine =
        builder()
            .lanes(SMALL)
            .shutdownGrace(Duration.ofSeconds(5))
            .staticLabels(Map.of("job", "custom"))
            .resignBackoff(Duration.ofMillis(50))
            .build();

    PipelineSettings pipeline =
        PipelineSettings.defaults()
            .withLanes(SMALL)
            .withShutdownGrace(Duration.ofSeconds(5))
            .withStaticLabels(Map.of("job", "custom"));
    assertThat(engine.settings())
        .isEqualTo(
            EngineSettings.defaults()
                .withPipeline(pipeline)
                .withResignBackoff(Duration.ofMillis(50)));
  }

  @Test
  void aBuilderChangedAfterBuildDoesNotChangeTheEngineItBuilt() {
    Engine.Builder builder = builder();
    Engine built = builder.build();

    builder.shutdownGrace(Duration.ofMillis(1)).resignBackoff(Duration.ZERO);

    assertThat(built.settings()).isEqualTo(EngineSettings.defaults());
  }
}
