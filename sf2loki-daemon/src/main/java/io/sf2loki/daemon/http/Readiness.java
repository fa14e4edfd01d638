package io.sf2loki.daemon.http;

import io.sf2loki.engine.EngineStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Maps the engine's status to the {@code /readyz} answer: 200 only for a healthy leader; 503 with a
 * reason otherwise ({@code not ready}, {@code standby}, {@code degraded: ...}, or the reason label
 * of the failure the engine is backing off from, such as {@code store_unavailable}).
 */
public final class Readiness {

  /**
   * The answer of one probe.
   *
   * @param status HTTP status
   * @param body plain-text body
   */
  public record Answer(int status, String body) {}

  private final Supplier<EngineStatus> status;
  private final Duration unreadyAfterSinkFailing;
  private final Clock clock;

  /**
   * @param unreadyAfterSinkFailing how long pushes may fail before a leader turns unready; zero
   *     disables
   */
  public Readiness(Supplier<EngineStatus> status, Duration unreadyAfterSinkFailing, Clock clock) {
    this.status = status;
    this.unreadyAfterSinkFailing = unreadyAfterSinkFailing;
    this.clock = clock;
  }

  /** Evaluated per request. */
  public Answer answer() {
    EngineStatus current = status.get();
    if (current instanceof EngineStatus.Standby) {
      return new Answer(503, "standby");
    }
    if (current instanceof EngineStatus.BackingOff backingOff) {
      return new Answer(503, backingOff.failure().reason());
    }
    if (current instanceof EngineStatus.Leading leading) {
      if (!unreadyAfterSinkFailing.isZero() && leading.sinkFailingSince().isPresent()) {
        Duration failing = Duration.between(leading.sinkFailingSince().get(), clock.instant());
        if (failing.compareTo(unreadyAfterSinkFailing) >= 0) {
          return new Answer(503, "degraded: loki pushes failing for " + render(failing));
        }
      }
      return new Answer(200, "ready");
    }
    return new Answer(503, "not ready");
  }

  static String render(Duration d) {
    return d.getSeconds() >= 60 ? d.toMinutes() + "m" : d.getSeconds() + "s";
  }
}
