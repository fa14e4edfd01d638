package io.sf2loki.engine;

import io.sf2loki.pipeline.LaneStall;
import io.sf2loki.spi.FailureClass;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;

/** What an engine is doing now; readiness probes and the leader gauge are derived from it. */
public sealed interface EngineStatus {

  /** Built, the coordinator not running yet. */
  record Starting() implements EngineStatus {}

  /**
   * Campaigning or standing by after a loss: another replica may lead.
   *
   * @param reason why this process's last term ended, when its coordinator said (a lease taken
   *     over, or given up because it could not be renewed in time)
   */
  record Standby(Optional<String> reason) implements EngineStatus {

    public Standby {
      Objects.requireNonNull(reason, "reason");
    }

    /** Campaigning, with no loss to report. */
    public Standby() {
      this(Optional.empty());
    }
  }

  /**
   * Leading a term.
   *
   * @param epoch the term's epoch
   * @param sinkFailingSince when Loki pushes started failing continuously, if they are failing
   * @param stalled the longest-stalled lane, once it has not moved for {@link
   *     EngineSettings#unreadyAfterStall()}
   * @param budgetPausedUntil the UTC date a lane waits for while the Loki daily byte budget is
   *     spent ({@code sink.loki.egress}, {@code budget_action = pause})
   */
  record Leading(
      long epoch,
      Optional<Instant> sinkFailingSince,
      Optional<LaneStall> stalled,
      Optional<LocalDate> budgetPausedUntil)
      implements EngineStatus {

    /** Leading with no lane paused by the budget. */
    public Leading(long epoch, Optional<Instant> sinkFailingSince, Optional<LaneStall> stalled) {
      this(epoch, sinkFailingSince, stalled, Optional.empty());
    }

    /** Leading with no lane stalled. */
    public Leading(long epoch, Optional<Instant> sinkFailingSince) {
      this(epoch, sinkFailingSince, Optional.empty());
    }
  }

  /**
   * The term ended under this leader (a commit was fenced by a newer leader, or the lease was lost)
   * and its pipeline is winding down: it moves nothing any more and stands by once the term has
   * been handed back to the coordinator.
   *
   * @param epoch the ended term's epoch
   * @param reason why it ended
   */
  record Fenced(long epoch, String reason) implements EngineStatus {}

  /**
   * A campaign or a term failed: the lease was given up and the engine waits before campaigning
   * again ({@link FailurePolicy}). Readiness answers 503 with the failure's reason.
   *
   * @param failure what failed
   * @param failures failures in a row, this one included
   * @param pause the wait before the next campaign
   */
  record BackingOff(FailureClass failure, int failures, Duration pause) implements EngineStatus {
    public BackingOff {
      Objects.requireNonNull(failure, "failure");
      Objects.requireNonNull(pause, "pause");
    }
  }

  /** Shutting down: draining, releasing, closing. */
  record Stopping() implements EngineStatus {}
}
