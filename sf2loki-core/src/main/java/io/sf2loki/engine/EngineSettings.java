package io.sf2loki.engine;

import io.sf2loki.pipeline.PipelineSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * How an engine runs, as one immutable value: the settings of the pipeline it runs on each term,
 * the pause after a resigned term and the answer to failures. {@link #defaults()} are the
 * documented defaults ({@code reference.conf}, pinned by a test); the {@code with…} methods derive
 * a changed copy.
 *
 * @param pipeline the settings of every term's pipeline; its {@code shutdownGrace} is also the
 *     engine's drain budget when a term ends
 * @param resignBackoff the pause between a term resigned after losing leadership (a fenced commit,
 *     a refused epoch claim; each counted in {@code sf2loki_fenced_commits}) and the next campaign
 * @param failures the backoff after a failed campaign or term, and when a permanent failure ends
 *     the engine
 */
public record EngineSettings(
    PipelineSettings pipeline, Duration resignBackoff, FailurePolicy failures) {

  public EngineSettings {
    Objects.requireNonNull(pipeline, "pipeline");
    if (Objects.requireNonNull(resignBackoff, "resignBackoff").isNegative()) {
      throw new IllegalArgumentException("resignBackoff must not be negative: " + resignBackoff);
    }
    Objects.requireNonNull(failures, "failures");
  }

  /**
   * {@link PipelineSettings#defaults()}, a 1s pause after a resign and {@link
   * FailurePolicy#defaults()}.
   */
  public static EngineSettings defaults() {
    return new EngineSettings(
        PipelineSettings.defaults(), Duration.ofSeconds(1), FailurePolicy.defaults());
  }

  /** A copy with other pipeline settings. */
  public EngineSettings withPipeline(PipelineSettings settings) {
    return new EngineSettings(settings, resignBackoff, failures);
  }

  /** A copy with another pause after a resign. */
  public EngineSettings withResignBackoff(Duration pause) {
    return new EngineSettings(pipeline, pause, failures);
  }

  /** A copy with another answer to failures. */
  public EngineSettings withFailures(FailurePolicy policy) {
    return new EngineSettings(pipeline, resignBackoff, policy);
  }
}
