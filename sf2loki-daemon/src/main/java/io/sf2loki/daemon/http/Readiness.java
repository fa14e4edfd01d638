package io.sf2loki.daemon.http;

import io.sf2loki.engine.EngineStatus;
import io.sf2loki.pipeline.LaneStall;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Maps the engine's status to the {@code /readyz} answer: 200 only for a leader that can make
 * progress; 503 with a reason otherwise. The status selects one reason: {@code standby} (with the
 * last term's loss reason, if any), {@code fenced: ...}, the reason label of the failure the engine
 * is backing off from (such as {@code store_unavailable}), {@code not ready} (starting or
 * stopping); a leader is {@code degraded: ...} by the first that applies of the Loki daily byte
 * budget spent (a lane paused until the next UTC day), Loki pushes failing for too long, then a
 * stalled lane.
 */
public final class Readiness implements Probe {

  private static final Answer READY = new Answer(200, "ready");

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
  @Override
  public Answer answer() {
    EngineStatus current = status.get();
    if (current instanceof EngineStatus.Standby standby) {
      return new Answer(503, standby.reason().map(r -> "standby: " + r).orElse("standby"));
    }
    if (current instanceof EngineStatus.Fenced fenced) {
      return new Answer(
          503, "fenced: epoch " + fenced.epoch() + " ended, standing by: " + fenced.reason());
    }
    if (current instanceof EngineStatus.BackingOff backingOff) {
      return new Answer(503, backingOff.failure().reason());
    }
    if (current instanceof EngineStatus.Leading leading) {
      return degradation(leading)
          .map(reason -> new Answer(503, "degraded: " + reason))
          .orElse(READY);
    }
    return new Answer(503, "not ready");
  }

  /** Why a leader cannot make progress: the first reason that applies, in this order. */
  private Optional<String> degradation(EngineStatus.Leading leading) {
    return leading
        .budgetPausedUntil()
        .map(Readiness::budgetExhausted)
        .or(() -> sinkFailing(leading))
        .or(() -> leading.stalled().map(Readiness::stalled));
  }

  private static String budgetExhausted(LocalDate until) {
    return "daily byte budget exhausted, pushes paused until " + until;
  }

  private Optional<String> sinkFailing(EngineStatus.Leading leading) {
    if (unreadyAfterSinkFailing.isZero() || leading.sinkFailingSince().isEmpty()) {
      return Optional.empty();
    }
    Duration failing = Duration.between(leading.sinkFailingSince().get(), clock.instant());
    return failing.compareTo(unreadyAfterSinkFailing) >= 0
        ? Optional.of("loki pushes failing for " + render(failing))
        : Optional.empty();
  }

  private static String stalled(LaneStall stall) {
    return stall.lane().name().toLowerCase(Locale.ROOT)
        + " lane stalled for "
        + render(stall.duration())
        + " ("
        + stall.queuedEntries()
        + " entries queued, nothing taken, pushed or committed)";
  }

  static String render(Duration d) {
    return d.getSeconds() >= 60 ? d.toMinutes() + "m" : d.getSeconds() + "s";
  }
}
