package io.sf2loki.engine;

import io.sf2loki.pipeline.PipelineSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * How an engine runs, as one immutable value: the settings of the pipeline it runs on each term,
 * the pause after a resigned term, the bounds of its health reports and the answer to failures.
 * {@link #defaults()} are the documented defaults ({@code reference.conf}, pinned by a test); the
 * {@code with…} methods derive a changed copy.
 *
 * @param pipeline the settings of every term's pipeline; its {@code shutdownGrace} is also the
 *     engine's drain budget when a term ends
 * @param resignBackoff the pause between a term resigned after losing leadership (a fenced commit,
 *     a refused epoch claim; each counted in {@code sf2loki_fenced_commits}) and the next campaign
 * @param livenessTimeout how old the heartbeat of the engine's supervising thread may grow before
 *     {@link Engine#staleHeartbeat()} reports it (a hung thread; {@code service.liveness_timeout});
 *     zero disables
 * @param unreadyAfterStall how long a lane may hold queued entries without delivering, attempting
 *     or handing on anything before a leader reports it as stalled ({@link
 *     EngineStatus.Leading#stalled()}, {@code service.unready_after_stall}); zero disables
 * @param failures the backoff after a failed campaign or term, and when a permanent failure ends
 *     the engine
 */
public record EngineSettings(
    PipelineSettings pipeline,
    Duration resignBackoff,
    Duration livenessTimeout,
    Duration unreadyAfterStall,
    FailurePolicy failures) {

  public EngineSettings {
    Objects.requireNonNull(pipeline, "pipeline");
    notNegative("resignBackoff", resignBackoff);
    notNegative("livenessTimeout", livenessTimeout);
    notNegative("unreadyAfterStall", unreadyAfterStall);
    Objects.requireNonNull(failures, "failures");
  }

  private static void notNegative(String name, Duration value) {
    if (Objects.requireNonNull(value, name).isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative: " + value);
    }
  }

  /**
   * {@link PipelineSettings#defaults()}, a 1s pause after a resign, a 5m liveness timeout, stalled
   * lanes reported after 5m and {@link FailurePolicy#defaults()}.
   */
  public static EngineSettings defaults() {
    return new EngineSettings(
        PipelineSettings.defaults(),
        Duration.ofSeconds(1),
        Duration.ofMinutes(5),
        Duration.ofMinutes(5),
        FailurePolicy.defaults());
  }

  /** A copy with other pipeline settings. */
  public EngineSettings withPipeline(PipelineSettings settings) {
    return new EngineSettings(
        settings, resignBackoff, livenessTimeout, unreadyAfterStall, failures);
  }

  /** A copy with another pause after a resign. */
  public EngineSettings withResignBackoff(Duration pause) {
    return new EngineSettings(pipeline, pause, livenessTimeout, unreadyAfterStall, failures);
  }

  /** A copy with another liveness timeout (zero disables). */
  public EngineSettings withLivenessTimeout(Duration timeout) {
    return new EngineSettings(pipeline, resignBackoff, timeout, unreadyAfterStall, failures);
  }

  /** A copy with another bound for stalled lanes (zero disables). */
  public EngineSettings withUnreadyAfterStall(Duration bound) {
    return new EngineSettings(pipeline, resignBackoff, livenessTimeout, bound, failures);
  }

  /** A copy with another answer to failures. */
  public EngineSettings withFailures(FailurePolicy policy) {
    return new EngineSettings(pipeline, resignBackoff, livenessTimeout, unreadyAfterStall, policy);
  }
}
