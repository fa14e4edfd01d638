package io.sf2loki.engine;

import io.sf2loki.pipeline.PipelineSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * How an engine runs, as one immutable value: the settings of the pipeline it runs on each term,
 * the pause between campaigns and the bounds of its health reports. {@link #defaults()} are the
 * documented defaults ({@code reference.conf}, pinned by a test); the {@code with…} methods derive
 * a changed copy.
 *
 * @param pipeline the settings of every term's pipeline; its {@code shutdownGrace} is also the
 *     engine's drain budget when a term ends
 * @param resignBackoff the pause between a resigned term and the next campaign, so a failing store
 *     is not hammered
 * @param livenessTimeout how old the heartbeat of the engine's supervising thread may grow before
 *     {@link Engine#staleHeartbeat()} reports it (a hung thread; {@code service.liveness_timeout});
 *     zero disables
 * @param unreadyAfterStall how long a lane may hold queued entries without delivering, attempting
 *     or handing on anything before a leader reports it as stalled ({@link
 *     EngineStatus.Leading#stalled()}, {@code service.unready_after_stall}); zero disables
 */
public record EngineSettings(
    PipelineSettings pipeline,
    Duration resignBackoff,
    Duration livenessTimeout,
    Duration unreadyAfterStall) {

  public EngineSettings {
    Objects.requireNonNull(pipeline, "pipeline");
    notNegative("resignBackoff", resignBackoff);
    notNegative("livenessTimeout", livenessTimeout);
    notNegative("unreadyAfterStall", unreadyAfterStall);
  }

  private static void notNegative(String name, Duration value) {
    if (Objects.requireNonNull(value, name).isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative: " + value);
    }
  }

  /**
   * {@link PipelineSettings#defaults()}, a 1s pause between campaigns, a 5m liveness timeout and
   * stalled lanes reported after 5m.
   */
  public static EngineSettings defaults() {
    return new EngineSettings(
        PipelineSettings.defaults(),
        Duration.ofSeconds(1),
        Duration.ofMinutes(5),
        Duration.ofMinutes(5));
  }

  /** A copy with other pipeline settings. */
  public EngineSettings withPipeline(PipelineSettings settings) {
    return new EngineSettings(settings, resignBackoff, livenessTimeout, unreadyAfterStall);
  }

  /** A copy with another pause between campaigns. */
  public EngineSettings withResignBackoff(Duration pause) {
    return new EngineSettings(pipeline, pause, livenessTimeout, unreadyAfterStall);
  }

  /** A copy with another liveness timeout (zero disables). */
  public EngineSettings withLivenessTimeout(Duration timeout) {
    return new EngineSettings(pipeline, resignBackoff, timeout, unreadyAfterStall);
  }

  /** A copy with another bound for stalled lanes (zero disables). */
  public EngineSettings withUnreadyAfterStall(Duration bound) {
    return new EngineSettings(pipeline, resignBackoff, livenessTimeout, bound);
  }
}
