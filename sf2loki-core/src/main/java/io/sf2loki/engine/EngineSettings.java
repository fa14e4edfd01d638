package io.sf2loki.engine;

import io.sf2loki.pipeline.PipelineSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * How an engine runs, as one immutable value: the settings of the pipeline it runs on each term,
 * and the pause between campaigns. {@link #defaults()} are the documented defaults ({@code
 * reference.conf}, pinned by a test); the {@code with…} methods derive a changed copy.
 *
 * @param pipeline the settings of every term's pipeline; its {@code shutdownGrace} is also the
 *     engine's drain budget when a term ends
 * @param resignBackoff the pause between a resigned term and the next campaign, so a failing store
 *     is not hammered
 */
public record EngineSettings(PipelineSettings pipeline, Duration resignBackoff) {

  public EngineSettings {
    Objects.requireNonNull(pipeline, "pipeline");
    if (Objects.requireNonNull(resignBackoff, "resignBackoff").isNegative()) {
      throw new IllegalArgumentException("resignBackoff must not be negative: " + resignBackoff);
    }
  }

  /** {@link PipelineSettings#defaults()} and a 1s pause between campaigns. */
  public static EngineSettings defaults() {
    return new EngineSettings(PipelineSettings.defaults(), Duration.ofSeconds(1));
  }

  /** A copy with other pipeline settings. */
  public EngineSettings withPipeline(PipelineSettings settings) {
    return new EngineSettings(settings, resignBackoff);
  }

  /** A copy with another pause between campaigns. */
  public EngineSettings withResignBackoff(Duration pause) {
    return new EngineSettings(pipeline, pause);
  }
}
