package io.sf2loki.engine;

import io.sf2loki.spi.FailureClass;
import java.util.Locale;
import java.util.Objects;

/** How {@link Engine#run} ended; launchers map it to an exit code in one place. */
public sealed interface EngineOutcome {

  /** A stop was requested (SIGTERM): drained, committed while leading, lease released. Exit 0. */
  record Stopped() implements EngineOutcome {}

  /** Every source finished on its own with nothing left to do (a finite run). Exit 0. */
  record Finished() implements EngineOutcome {}

  /**
   * A permanent failure ended the engine after its last allowed attempt ({@link FailurePolicy}): a
   * store that refuses access or is corrupt, a state file another sf2loki holds, rejected
   * credentials, an unexpected error (an exception or {@link Error} on a lane, the term's thread or
   * the coordinator's). Exit 1.
   *
   * @param failure what it is: the reason, the resource and the fix
   * @param attempts the attempts made, the last one included
   * @param cause the last attempt's exception
   */
  record Failed(FailureClass failure, int attempts, Throwable cause) implements EngineOutcome {
    public Failed {
      Objects.requireNonNull(failure, "failure");
      Objects.requireNonNull(cause, "cause");
    }

    /**
     * One line for the operator: the resource (unless the message names it), what happened, the
     * reason, the attempts and the fix.
     */
    public String describe() {
      String what = cause.getMessage() == null ? cause.toString() : cause.getMessage();
      boolean named = failure.resource().isBlank() || what.contains(failure.resource());
      String where = named ? "" : failure.resource() + ": ";
      return where
          + what
          + " ("
          + failure.reason()
          + ", "
          + failure.kind().name().toLowerCase(Locale.ROOT)
          + ", "
          + attempts
          + (attempts == 1 ? " attempt)" : " attempts)")
          + (failure.fix().isBlank() ? "" : "; fix: " + failure.fix());
    }
  }
}
