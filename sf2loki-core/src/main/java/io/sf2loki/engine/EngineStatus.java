package io.sf2loki.engine;

import java.time.Instant;
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

  /** Shutting down: draining, releasing, closing. */
  record Stopping() implements EngineStatus {}
}
