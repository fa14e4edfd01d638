package io.sf2loki.engine;

import java.util.Objects;

/** How {@link Engine#run} ended; launchers map it to an exit code in one place. */
public sealed interface EngineOutcome {

  /** A stop was requested (SIGTERM): drained, committed while leading, lease released. Exit 0. */
  record Stopped() implements EngineOutcome {}

  /** Every source finished on its own with nothing left to do (a finite run). Exit 0. */
  record Finished() implements EngineOutcome {}

  /**
   * A real failure ended the engine (a commit that failed for a reason other than fencing, a source
   * that crashed, an exception or {@link Error} on a lane, the term's thread or the coordinator's).
   * Exit 1.
   *
   * @param cause what went wrong
   */
  record Failed(Throwable cause) implements EngineOutcome {
    public Failed {
      Objects.requireNonNull(cause, "cause");
    }
  }
}
