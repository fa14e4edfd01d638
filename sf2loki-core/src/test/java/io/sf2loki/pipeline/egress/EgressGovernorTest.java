package io.sf2loki.pipeline.egress;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.EgressConfig;
import io.sf2loki.config.EgressConfig.BudgetAction;
import io.sf2loki.config.EgressConfig.RateCaps;
import io.sf2loki.spi.Source.Lane;
import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EgressGovernorTest {

  private static final Instant NOON = Instant.parse("2026-12-02T12:00:00Z");

  private final ManualClock clock = new ManualClock(NOON);
  private final AtomicLong nanos = new AtomicLong();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final EgressMetrics metrics = new EgressMetrics(registry);

  /** Waits by moving both clocks; records what it was asked to wait. */
  private class MovingWait implements EgressWait {
    final List<Duration> waits = new ArrayList<>();
    boolean stopping;

    @Override
    public boolean await(Duration duration) {
      waits.add(duration);
      clock.advance(duration);
      nanos.addAndGet(duration.toNanos());
      return false;
    }

    @Override
    public boolean stopping() {
      return stopping;
    }

    Duration total() {
      return waits.stream().reduce(Duration.ZERO, Duration::plus);
    }
  }

  private EgressGovernor governor(EgressConfig config, Map<String, String> loaded) {
    return new EgressGovernor(config, clock, nanos::get, metrics, loaded);
  }

  private static EgressConfig budget(long bytes, BudgetAction action, Set<Lane> exempt) {
    return new EgressConfig(bytes, action, exempt, Map.of());
  }

  @Test
  void batchesWithinTheDaysBudgetGoAtOnceAndTheirBytesAreCounted() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.PAUSE, Set.of()), Map.of());
    MovingWait wait = new MovingWait();

    assertThat(g.admit(Lane.BULK, 10, 600, wait)).isInstanceOf(Admission.Admit.class);
    g.pushed(Lane.BULK, 600);
    assertThat(g.admit(Lane.BULK, 10, 400, wait)).isInstanceOf(Admission.Admit.class);

    assertThat(wait.waits).isEmpty();
    assertThat(registry.get("sf2loki_egress_budget_used_bytes").gauge().value()).isEqualTo(600);
    assertThat(registry.get("sf2loki_egress_budget_limit_bytes").gauge().value()).isEqualTo(1000);
  }

  @Test
  void aBatchPastTheBudgetIsHeldUntilTheNextUtcDayThenAdmitted() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.PAUSE, Set.of()), Map.of());
    g.pushed(Lane.BULK, 900);
    MovingWait wait = new MovingWait();

    Admission admission = g.admit(Lane.BULK, 5, 200, wait);

    assertThat(admission).isInstanceOf(Admission.Admit.class);
    assertThat(clock.instant()).isEqualTo(Instant.parse("2026-12-03T00:00:00Z"));
    assertThat(wait.waits)
        .allSatisfy(d -> assertThat(d).isLessThanOrEqualTo(Duration.ofSeconds(1)));
    assertThat(metrics.pausedUntil()).isEmpty();
    assertThat(registry.get("sf2loki_egress_paused").tag("lane", "bulk").gauge().value()).isZero();
  }

  @Test
  void whilePausedTheLaneAndTheDateItWaitsForAreShown() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.PAUSE, Set.of()), Map.of());
    g.pushed(Lane.BULK, 1000);
    List<Optional<LocalDate>> seen = new ArrayList<>();
    MovingWait wait =
        new MovingWait() {
          @Override
          public boolean await(Duration d) {
            seen.add(metrics.pausedUntil());
            return super.await(d);
          }
        };

    g.admit(Lane.BULK, 1, 1, wait);

    assertThat(seen)
        .isNotEmpty()
        .allSatisfy(s -> assertThat(s).contains(LocalDate.of(2026, 12, 3)));
  }

  @Test
  void aStopWhilePausedGivesTheBatchUp() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.PAUSE, Set.of()), Map.of());
    g.pushed(Lane.BULK, 1000);
    MovingWait wait = new MovingWait();
    wait.stopping = true;

    assertThat(g.admit(Lane.BULK, 1, 1, wait)).isInstanceOf(Admission.GiveUp.class);
    assertThat(metrics.pausedUntil()).isEmpty();
  }

  @Test
  void anAbortWhilePausedGivesTheBatchUp() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.PAUSE, Set.of()), Map.of());
    g.pushed(Lane.BULK, 1000);

    Admission admission =
        g.admit(
            Lane.BULK,
            1,
            1,
            new EgressWait() {
              @Override
              public boolean await(Duration duration) {
                return true;
              }

              @Override
              public boolean stopping() {
                return false;
              }
            });

    assertThat(admission).isInstanceOf(Admission.GiveUp.class);
  }

  @Test
  void withTheDropActionABatchPastTheBudgetIsDroppedWithoutWaiting() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.DROP, Set.of()), Map.of());
    g.pushed(Lane.BULK, 950);
    MovingWait wait = new MovingWait();

    assertThat(g.admit(Lane.BULK, 3, 100, wait)).isInstanceOf(Admission.Drop.class);
    assertThat(wait.waits).isEmpty();
  }

  @Test
  void anExemptLaneKeepsPushingPastTheBudgetAndItsBytesStillCount() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.PAUSE, Set.of(Lane.STREAMING)), Map.of());
    g.pushed(Lane.BULK, 1000);
    MovingWait wait = new MovingWait();

    assertThat(g.admit(Lane.STREAMING, 1, 500, wait)).isInstanceOf(Admission.Admit.class);
    g.pushed(Lane.STREAMING, 500);

    assertThat(wait.waits).isEmpty();
    assertThat(registry.get("sf2loki_egress_budget_used_bytes").gauge().value()).isEqualTo(1500);
  }

  @Test
  void theDaysFirstBatchIsAdmittedEvenWhenLargerThanTheWholeBudget() throws Exception {
    EgressGovernor g = governor(budget(100, BudgetAction.PAUSE, Set.of()), Map.of());

    assertThat(g.admit(Lane.BULK, 1, 5000, new MovingWait())).isInstanceOf(Admission.Admit.class);
  }

  @Test
  void todaysUseIsLoadedFromTheDocumentSoItSurvivesARestart() throws Exception {
    String stored = new DailyUsage(LocalDate.of(2026, 12, 2), 990).toJson();
    EgressGovernor g =
        governor(budget(1000, BudgetAction.DROP, Set.of()), Map.of(DailyUsage.KEY, stored));

    assertThat(g.admit(Lane.BULK, 1, 20, new MovingWait())).isInstanceOf(Admission.Drop.class);
    assertThat(registry.get("sf2loki_egress_budget_used_bytes").gauge().value()).isEqualTo(990);
  }

  @Test
  void aStoredUseOfAnEarlierDayStartsTodayAtZero() throws Exception {
    String stored = new DailyUsage(LocalDate.of(2026, 12, 1), 990).toJson();
    EgressGovernor g =
        governor(budget(1000, BudgetAction.DROP, Set.of()), Map.of(DailyUsage.KEY, stored));

    assertThat(g.admit(Lane.BULK, 1, 500, new MovingWait())).isInstanceOf(Admission.Admit.class);
  }

  @Test
  void aCorruptStoredUseIsCountedStartsAtZeroAndIsRewrittenAtTheNextCommit() {
    EgressGovernor g =
        governor(budget(1000, BudgetAction.PAUSE, Set.of()), Map.of(DailyUsage.KEY, "{oops"));

    assertThat(registry.get("sf2loki_egress_budget_load_errors").counter().count()).isEqualTo(1);
    assertThat(g.unpersisted()).contains("{\"date\":\"2026-12-02\",\"bytes\":0}");
  }

  @Test
  void theUseIsOfferedToTheNextCommitOnlyAfterItChanged() {
    EgressGovernor g = governor(budget(1000, BudgetAction.PAUSE, Set.of()), Map.of());
    assertThat(g.unpersisted()).isEmpty();

    g.pushed(Lane.BULK, 10);
    String value = g.unpersisted().orElseThrow();
    g.persisted(value);

    assertThat(value).isEqualTo("{\"date\":\"2026-12-02\",\"bytes\":10}");
    assertThat(g.unpersisted()).isEmpty();
  }

  @Test
  void withoutABudgetNothingIsPersistedOrHeld() throws Exception {
    EgressGovernor g = governor(EgressConfig.none(), Map.of());
    g.pushed(Lane.BULK, 1_000_000);

    assertThat(g.admit(Lane.BULK, 1, 1_000_000, new MovingWait()))
        .isInstanceOf(Admission.Admit.class);
    assertThat(g.unpersisted()).isEmpty();
  }

  @Test
  void aCappedLanesMeasuredRateStaysWithinItsCapPlusOneSecondOfBurst() throws Exception {
    EgressConfig caps =
        new EgressConfig(
            0,
            BudgetAction.PAUSE,
            Set.of(),
            Map.of(Lane.BULK, new RateCaps(100_000, 500), Lane.STREAMING, new RateCaps(0, 0)));
    EgressGovernor g = governor(caps, Map.of());
    MovingWait wait = new MovingWait();
    long bytes = 0;
    long lines = 0;
    for (int i = 0; i < 2_000; i++) {
      long batchLines = 1 + i % 100;
      long batchBytes = batchLines * 300;
      g.admit(Lane.BULK, batchLines, batchBytes, wait);
      bytes += batchBytes;
      lines += batchLines;
    }
    double seconds = wait.total().toNanos() / 1e9;

    assertThat(seconds).isPositive();
    // everything admitted up to the last batch went within cap x elapsed + one second's burst
    assertThat((double) bytes - 100 * 300).isLessThanOrEqualTo(100_000 * seconds + 100_000);
    assertThat((double) lines - 100).isLessThanOrEqualTo(500 * seconds + 500);
    assertThat(
            registry.get("sf2loki_egress_throttled_seconds").tag("lane", "bulk").counter().count())
        .isCloseTo(seconds, org.assertj.core.data.Offset.offset(1e-6));
  }

  @Test
  void anUncappedLaneNeverWaits() throws Exception {
    EgressConfig caps =
        new EgressConfig(0, BudgetAction.PAUSE, Set.of(), Map.of(Lane.BULK, new RateCaps(10, 1)));
    EgressGovernor g = governor(caps, Map.of());
    MovingWait wait = new MovingWait();
    for (int i = 0; i < 100; i++) {
      g.admit(Lane.STREAMING, 100, 100_000, wait);
    }

    assertThat(wait.waits).isEmpty();
  }

  @Test
  void admitOrHoldHoldsABatchPastTheBudgetUntilTheNextUtcDayWithoutWaiting() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.PAUSE, Set.of()), Map.of());
    g.pushed(Lane.BULK, 900);
    MovingWait wait = new MovingWait();

    assertThat(g.admitOrHold(Lane.BULK, 10, 200, wait))
        .isEqualTo(new Admission.Hold(Instant.parse("2026-12-03T00:00:00Z")));
    assertThat(wait.waits).isEmpty();
    assertThat(metrics.pausedUntil()).contains(LocalDate.parse("2026-12-03"));
  }

  @Test
  void aHeldLaneStaysPausedUntilABatchFitsAgain() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.PAUSE, Set.of()), Map.of());
    g.pushed(Lane.BULK, 900);
    MovingWait wait = new MovingWait();
    g.admitOrHold(Lane.BULK, 10, 200, wait);
    g.admitOrHold(Lane.BULK, 10, 200, wait);
    assertThat(metrics.pausedUntil()).isPresent();

    clock.set(Instant.parse("2026-12-03T00:00:00Z"));

    assertThat(g.admitOrHold(Lane.BULK, 10, 200, wait)).isInstanceOf(Admission.Admit.class);
    assertThat(metrics.pausedUntil()).isEmpty();
  }

  @Test
  void admitOrHoldDropsUnderTheDropActionAndLetsExemptLanesPass() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.DROP, Set.of(Lane.STREAMING)), Map.of());
    g.pushed(Lane.BULK, 900);
    MovingWait wait = new MovingWait();

    assertThat(g.admitOrHold(Lane.BULK, 10, 200, wait)).isInstanceOf(Admission.Drop.class);
    assertThat(g.admitOrHold(Lane.STREAMING, 10, 200, wait)).isInstanceOf(Admission.Admit.class);
  }

  @Test
  void anObservedUseOfTodayReplacesTheCountedOneAndAnotherDaysIsIgnored() throws Exception {
    EgressGovernor g = governor(budget(1000, BudgetAction.PAUSE, Set.of()), Map.of());
    g.pushed(Lane.BULK, 100);

    g.observed(new DailyUsage(LocalDate.parse("2026-12-01"), 5000));
    assertThat(g.admitOrHold(Lane.BULK, 1, 800, new MovingWait()))
        .isInstanceOf(Admission.Admit.class);

    g.observed(new DailyUsage(LocalDate.parse("2026-12-02"), 950));
    assertThat(g.admitOrHold(Lane.BULK, 1, 100, new MovingWait()))
        .isInstanceOf(Admission.Hold.class);
    assertThat(registry.get("sf2loki_egress_budget_used_bytes").gauge().value()).isEqualTo(950);
  }
}
