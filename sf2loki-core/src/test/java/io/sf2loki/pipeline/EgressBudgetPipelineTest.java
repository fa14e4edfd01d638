package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.keyed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.EgressConfig;
import io.sf2loki.config.EgressConfig.BudgetAction;
import io.sf2loki.pipeline.egress.DailyUsage;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Source.Lane;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The Loki daily byte budget in a running pipeline: a spent budget holds the lane (nothing is
 * dropped, checkpoints hold), the next UTC day releases it, and the day's use is in the checkpoint
 * document, so a restart or another leader's term starts from it.
 */
class EgressBudgetPipelineTest {

  // ten entries of 11 line bytes ("elf:Login#0"), two per batch: 22 bytes a batch
  private static final long BUDGET = 70; // three batches a day
  private static final Duration DAY = Duration.ofDays(1);

  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-02T12:00:00Z"));
  private final FakeCheckpointStore store = new FakeCheckpointStore();
  private final ScriptedSink sink = new ScriptedSink();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final PipelineMetrics metrics = new PipelineMetrics(registry);

  private Pipeline pipeline(ScriptedSource source, long epoch, BudgetAction action) {
    PipelineEnvironment env =
        new PipelineEnvironment(clock, Ticker.SYSTEM, new Random(1), new NamedThreadFactory("t"));
    return Pipeline.builder(List.of(source), sink, store, new FakeTerm(epoch), env)
        .lanes(Runs.lanes(2, 100, 0))
        .backoff(Backoff.fixed(Duration.ofMillis(10)))
        .streamingCommitInterval(Duration.ZERO) // the store is read as soon as the lane pauses
        .shutdownGrace(TestTiming.seconds(5))
        .joinTimeout(TestTiming.seconds(5))
        .egress(new EgressConfig(BUDGET, action, Set.of(), Map.of()))
        .metrics(metrics)
        .build();
  }

  private static ScriptedSource elf(int from, int to) {
    return new ScriptedSource(
        "elf", Lane.BULK, to - from, i -> keyed("eventlogfile", "elf:Login", from + i), true);
  }

  private static List<String> lines(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> "elf:Login#" + i).toList();
  }

  private void awaitPaused() {
    await().atMost(TestTiming.seconds(10)).until(() -> metrics.egress().pausedUntil().isPresent());
  }

  @Test
  void aSpentBudgetHoldsTheLaneWithItsCheckpointsAndTheNextUtcDayReleasesIt() throws Exception {
    Runs.Running run = Runs.start(pipeline(elf(0, 10), 1, BudgetAction.PAUSE));

    awaitPaused();
    assertThat(metrics.egress().pausedUntil()).contains(LocalDate.of(2026, 12, 3));
    assertThat(sink.lines()).isEqualTo(lines(0, 6));
    assertThat(store.loadAll())
        .containsEntry("elf:Login", "5")
        .containsEntry(DailyUsage.KEY, "{\"date\":\"2026-12-02\",\"bytes\":66}");

    clock.advance(DAY);
    await().atMost(TestTiming.seconds(10)).until(() -> sink.lines().size() == 10);
    run.stop().requestStop();
    run.outcome().get(30, TimeUnit.SECONDS);

    assertThat(sink.lines()).isEqualTo(lines(0, 10));
    assertThat(store.loadAll())
        .containsEntry("elf:Login", "9")
        .containsEntry(DailyUsage.KEY, "{\"date\":\"2026-12-03\",\"bytes\":44}");
    assertThat(metrics.egress().pausedUntil()).isEmpty();
  }

  @Test
  void theDaysUseSurvivesARestartAndANewLeadersTerm() throws Exception {
    Runs.Running first = Runs.start(pipeline(elf(0, 10), 1, BudgetAction.PAUSE));
    awaitPaused();
    first.stop().requestStop(); // a stop while paused gives the held batch up, uncommitted
    assertThat(first.outcome().get(30, TimeUnit.SECONDS))
        .isInstanceOf(PipelineOutcome.Stopped.class);
    assertThat(store.loadAll()).containsEntry("elf:Login", "5");

    // the next term (a restart, or the standby taking over with a higher epoch) resumes after 5
    Runs.Running second = Runs.start(pipeline(elf(6, 10), 2, BudgetAction.PAUSE));
    awaitPaused();
    assertThat(sink.lines()).isEqualTo(lines(0, 6));

    clock.advance(DAY);
    await().atMost(TestTiming.seconds(10)).until(() -> sink.lines().size() == 10);
    second.stop().requestStop();
    second.outcome().get(30, TimeUnit.SECONDS);

    assertThat(sink.lines()).isEqualTo(lines(0, 10));
    assertThat(store.loadAll()).containsEntry("elf:Login", "9");
  }

  @Test
  void withTheDropActionTheBatchesPastTheBudgetAreDroppedCountedAndCommittedPast()
      throws Exception {
    Runs.Running run = Runs.start(pipeline(elf(0, 10), 1, BudgetAction.DROP));

    await()
        .atMost(TestTiming.seconds(10))
        .until(() -> "9".equals(store.loadAll().get("elf:Login")));
    run.stop().requestStop();
    run.outcome().get(30, TimeUnit.SECONDS);

    assertThat(sink.lines()).isEqualTo(lines(0, 6));
    assertThat(
            registry.get(PipelineMetrics.ENTRIES_DROPPED).tag("reason", "budget").counter().count())
        .isEqualTo(4);
    assertThat(metrics.egress().pausedUntil()).isEmpty();
  }
}
