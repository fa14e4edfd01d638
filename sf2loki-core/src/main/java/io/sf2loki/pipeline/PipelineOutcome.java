package io.sf2loki.pipeline;

import java.util.Objects;

/**
 * How a pipeline run ended. The owner maps it once: {@link Completed} and {@link Stopped} are
 * normal ends, {@link LostLeadership} returns the process to standby (invariant 3), {@link Failed}
 * is an error.
 */
public sealed interface PipelineOutcome {

  /** Every source ended on its own and everything it emitted was delivered and committed. */
  record Completed() implements PipelineOutcome {}

  /**
   * A stop was requested and the run drained within its grace period as far as it could.
   *
   * @param abandonedBatches batches left undelivered and uncommitted (their keys were blocked)
   */
  record Stopped(int abandonedBatches) implements PipelineOutcome {}

  /**
   * A checkpoint write was fenced or lost a CAS race: a newer leader owns the checkpoints. Not an
   * error; the owner stands by.
   *
   * @param reason the store's message
   */
  record LostLeadership(String reason) implements PipelineOutcome {
    public LostLeadership {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * A commit failed for another reason, a source failed, or a lane broke.
   *
   * @param cause what went wrong
   */
  record Failed(Throwable cause) implements PipelineOutcome {
    public Failed {
      Objects.requireNonNull(cause, "cause");
    }
  }
}
