package io.sf2loki.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.config.LaneConfig;
import io.sf2loki.spi.Source.Lane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pipeline's settings are a value: copies derive, nothing is shared with a builder. */
class PipelineSettingsTest {

  private static final LaneConfig FAST_FLUSH =
      LaneConfig.defaults().withBatch(10, 1_048_576, Duration.ofMillis(50), 100, 0);

  @Test
  void aLaneOfItsOwnOverridesOnlyThatLane() {
    PipelineSettings settings = PipelineSettings.defaults().withLane(Lane.STREAMING, FAST_FLUSH);

    assertThat(settings.lane(Lane.STREAMING)).isEqualTo(FAST_FLUSH);
    assertThat(settings.lane(Lane.BULK)).isEqualTo(LaneConfig.defaults());
    assertThat(settings.withLanes(FAST_FLUSH).lane(Lane.BULK)).isEqualTo(FAST_FLUSH);
  }

  @Test
  void aCopyLeavesTheOriginalAsItWas() {
    PipelineSettings defaults = PipelineSettings.defaults();

    PipelineSettings changed =
        defaults
            .withShutdownGrace(Duration.ofSeconds(5))
            .withJoinTimeout(Duration.ofSeconds(6))
            .withStaticLabels(Map.of("job", "custom"))
            .withLane(Lane.BULK, FAST_FLUSH);

    assertThat(defaults).isEqualTo(PipelineSettings.defaults());
    assertThat(changed.shutdownGrace()).isEqualTo(Duration.ofSeconds(5));
    assertThat(changed.joinTimeout()).isEqualTo(Duration.ofSeconds(6));
    assertThat(changed.staticLabels()).containsExactly(Map.entry("job", "custom"));
    assertThat(changed.laneOverrides()).containsOnlyKeys(Lane.BULK);
  }

  @Test
  void aNegativeBudgetIsRefused() {
    assertThatThrownBy(() -> PipelineSettings.defaults().withShutdownGrace(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shutdownGrace");
  }

  @Test
  void aBuilderChangedAfterBuildDoesNotChangeThePipelineItBuilt() {
    Pipeline.Builder builder =
        Runs.fast(List.of(), new ScriptedSink(), new FakeCheckpointStore(), new FakeTerm(1));
    Pipeline built = builder.build();
    PipelineSettings before = built.settings();

    builder.shutdownGrace(Duration.ofMillis(1)).lanes(FAST_FLUSH).staticLabels(Map.of("a", "b"));

    assertThat(built.settings()).isEqualTo(before);
    assertThat(builder.build().settings()).isNotEqualTo(before);
  }
}
