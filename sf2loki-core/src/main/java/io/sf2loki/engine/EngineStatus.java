package io.sf2loki.engine;

import io.sf2loki.spi.FailureClass;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** What an engine is doing now; readiness probes and the leader gauge are derived from it. */
public sealed interface EngineStatus {

  /** Built, the coordinator not running yet. */
  record Starting() implements EngineStatus {}

  /** Campaigning or standing by after a loss: another replica may lead. */
  record Standby() implements EngineStatus {}

  /**
   * Leading a term.
   *
   * @param epoch the term's epoch
   * @param sinkFailingSince when Loki pushes started failing continuously, if they are failing
   */
  record Leading(long epoch, Optional<Instant> sinkFailingSince) implements EngineStatus {}

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
