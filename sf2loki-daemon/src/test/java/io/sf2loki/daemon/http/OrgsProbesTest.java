package io.sf2loki.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.EngineStatus;
import io.sf2loki.spi.FailureClass;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** /readyz and /healthz of a multi-org process: a summary line, then each org's own answer. */
class OrgsProbesTest {

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);

  private final Org prod = new Org("prod");
  private final Org emea = new Org("emea");
  private final OrgsReadiness readiness = new OrgsReadiness(List.of(prod.probe(), emea.probe()));
  private final OrgsLiveness liveness = new OrgsLiveness(List.of(prod.probe(), emea.probe()));

  private static final class Org {
    final String name;
    final AtomicReference<EngineStatus> status = new AtomicReference<>(new EngineStatus.Starting());
    final AtomicReference<EngineOutcome> ended = new AtomicReference<>();
    final AtomicReference<Optional<Duration>> stale = new AtomicReference<>(Optional.empty());

    Org(String name) {
      this.name = name;
    }

    OrgProbe probe() {
      return new OrgProbe(
          name,
          new Liveness(stale::get),
          new Readiness(status::get, Duration.ofMinutes(15), CLOCK),
          () -> Optional.ofNullable(ended.get()));
    }

    void leads() {
      status.set(new EngineStatus.Leading(4, Optional.empty()));
    }
  }

  @Test
  void aReplicaLeadingEveryOrgIsReadyAndSaysSoPerOrg() {
    prod.leads();
    emea.leads();

    assertThat(readiness.answer())
        .isEqualTo(new Answer(200, "ready\norg prod: ready\norg emea: ready"));
  }

  @Test
  void aReplicaLeadingSomeOrgsWhileAnotherLeadsTheRestIsReady() {
    prod.leads();
    emea.status.set(new EngineStatus.Standby());

    assertThat(readiness.answer())
        .isEqualTo(new Answer(200, "ready\norg prod: ready\norg emea: standby"));
  }

  @Test
  void aReplicaLeadingNoOrgIsAStandby() {
    prod.status.set(new EngineStatus.Standby());
    emea.status.set(new EngineStatus.Fenced(3, "the lease was lost"));

    Answer answer = readiness.answer();

    assertThat(answer.status()).isEqualTo(503);
    assertThat(answer.body()).startsWith("standby\norg prod: standby\norg emea: fenced: epoch 3");
  }

  @Test
  void anOrgBackingOffFromAFailureDegradesTheReplicaNamingTheOrg() {
    prod.leads();
    emea.status.set(
        new EngineStatus.BackingOff(
            FailureClass.permanent("auth_rejected", "token endpoint", "fix the secret"),
            2,
            Duration.ofSeconds(2)));

    assertThat(readiness.answer())
        .isEqualTo(
            new Answer(
                503,
                "degraded: org emea: auth_rejected\norg prod: ready\norg emea: auth_rejected"));
  }

  @Test
  void anOrgWhoseEngineEndedAfterAFailureKeepsTheReplicaUnready() {
    prod.leads();
    emea.ended.set(
        new EngineOutcome.Failed(
            FailureClass.permanent("auth_rejected", "token endpoint", ""),
            3,
            new IllegalStateException("rejected")));

    assertThat(readiness.answer().body())
        .isEqualTo(
            "degraded: org emea: failed: auth_rejected\n"
                + "org prod: ready\n"
                + "org emea: failed: auth_rejected");
  }

  @Test
  void anOrgStillLoggingInKeepsTheReplicaNotReady() {
    prod.leads();

    assertThat(readiness.answer())
        .isEqualTo(new Answer(503, "not ready\norg prod: ready\norg emea: not ready"));
  }

  @Test
  void livenessNamesTheOrgWhoseEngineHangs() {
    emea.stale.set(Optional.of(Duration.ofSeconds(312)));

    assertThat(liveness.answer())
        .isEqualTo(new Answer(503, "unhealthy: org emea: engine heartbeat stale for 312s"));
    emea.stale.set(Optional.empty());
    assertThat(liveness.answer()).isEqualTo(new Answer(200, "ok"));
  }
}
