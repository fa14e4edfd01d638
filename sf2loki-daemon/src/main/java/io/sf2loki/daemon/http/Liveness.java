package io.sf2loki.daemon.http;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Maps the engine's heartbeat to the {@code /healthz} answer: {@code 200 ok} while the engine's
 * supervising thread beats; {@code 503 unhealthy: engine heartbeat stale for Ns} once its last beat
 * is older than {@code service.liveness_timeout} (a hung thread), so a supervisor restarts the
 * process. Sink, auth and leadership never affect it.
 */
public final class Liveness implements Probe {

  private static final Answer OK = new Answer(200, "ok");

  private final Supplier<Optional<Duration>> staleHeartbeat;

  /**
   * @param staleHeartbeat the heartbeat's age once it is stale, else empty ({@code
   *     Engine::staleHeartbeat})
   */
  public Liveness(Supplier<Optional<Duration>> staleHeartbeat) {
    this.staleHeartbeat = Objects.requireNonNull(staleHeartbeat, "staleHeartbeat");
  }

  /** Evaluated per request. */
  @Override
  public Answer answer() {
    return staleHeartbeat
        .get()
        .map(
            age ->
                new Answer(503, "unhealthy: engine heartbeat stale for " + age.toSeconds() + "s"))
        .orElse(OK);
  }
}
