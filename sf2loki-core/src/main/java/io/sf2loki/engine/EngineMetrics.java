package io.sf2loki.engine;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.FailureClass;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leadership metrics: {@code sf2loki_leader} (1 while leading, exported while idle), the
 * current epoch, acquisitions, losses, fenced commits, the failures that ended a campaign or a term
 * ({@code sf2loki_engine_failures{kind,reason}}), and {@code sf2loki_build_info}.
 */
final class EngineMetrics {

  private final MeterRegistry registry;
  private final AtomicLong leader = new AtomicLong();
  private final AtomicLong epoch = new AtomicLong();
  private final Counter acquisitions;
  private final Counter losses;
  private final Counter fenced;
  private final Counter claimsRefused;

  EngineMetrics(MeterRegistry registry, String version) {
    this.registry = registry;
    Gauge.builder("sf2loki_leader", leader, AtomicLong::get)
        .description("1 while this process leads, else 0")
        .register(registry);
    Gauge.builder("sf2loki_leader_epoch", epoch, AtomicLong::get)
        .description("epoch of the current or last leadership term")
        .register(registry);
    Gauge.builder("sf2loki_build_info", () -> 1)
        .description("always 1; the version label carries the build version")
        .tag("version", version)
        .register(registry);
    acquisitions =
        Counter.builder("sf2loki_leadership_acquisitions")
            .description("leadership terms acquired")
            .register(registry);
    losses =
        Counter.builder("sf2loki_leadership_losses")
            .description("leadership terms ended (lost, surrendered or released)")
            .register(registry);
    fenced =
        Counter.builder("sf2loki_fenced_commits")
            .description("checkpoint commits refused because a newer leader owns the state")
            .register(registry);
    claimsRefused =
        Counter.builder("sf2loki_epoch_claims_refused")
            .description(
                "terms given up at acquire because another replica had recorded their epoch"
                    + " first (also counted in sf2loki_fenced_commits)")
            .register(registry);
  }

  void acquired(long termEpoch) {
    epoch.set(termEpoch);
    leader.set(1);
    acquisitions.increment();
  }

  void lost() {
    leader.set(0);
    losses.increment();
  }

  void fencedCommit() {
    fenced.increment();
  }

  /**
   * The epoch claim at acquire was refused: the lease was granted under this replica's feet (a
   * deleted or hand-edited Lease), so it is told apart from a fencing during the run.
   */
  void claimRefused() {
    claimsRefused.increment();
    fenced.increment();
  }

  /** A failure ended a campaign or a term. */
  void failed(FailureClass failure) {
    Counter.builder("sf2loki_engine_failures")
        .description(
            "failures that ended a campaign or a leadership term, by kind (transient or permanent)"
                + " and reason")
        .tag("kind", failure.kind().name().toLowerCase(Locale.ROOT))
        .tag("reason", failure.reason())
        .register(registry)
        .increment();
  }
}
