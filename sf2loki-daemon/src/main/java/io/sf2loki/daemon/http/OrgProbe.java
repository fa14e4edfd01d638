package io.sf2loki.daemon.http;

import io.sf2loki.engine.EngineOutcome;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One org's probes in a multi-org process: its engine's liveness and readiness, and how its engine
 * ended once it has (a permanent failure ends one org's engine alone).
 *
 * @param org the org's name
 * @param ended the engine's outcome once it has ended, else empty
 */
public record OrgProbe(
    String org, Liveness liveness, Readiness readiness, Supplier<Optional<EngineOutcome>> ended) {

  public OrgProbe {
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(liveness, "liveness");
    Objects.requireNonNull(readiness, "readiness");
    Objects.requireNonNull(ended, "ended");
  }
}
