package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.keyed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A lane is stalled while its queue holds entries and neither stage moved (an entry taken, a push
 * attempt ended, a commit) since, on the run's ticker, here driven by hand.
 */
class LaneStallTest {

  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final PipelineMetrics metrics = new PipelineMetrics(registry);

  private void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }

  private LaneProgress watched(Source.Lane lane, int queued) throws InterruptedException {
    LaneQueue queue = new LaneQueue(100, 0);
    for (int i = 0; i < queued; i++) {
      queue.put(keyed("eventlogfile", "elf:Login", i));
    }
    LaneProgress progress = new LaneProgress(lane, queue, ticker);
    metrics.watch(lane, progress);
    return progress;
  }

  private double stalledSeconds(String lane) {
    return registry.get("sf2loki_lane_stalled_seconds").tag("lane", lane).gauge().value();
  }

  @Test
  void anEmptyLaneIsNeverStalled() throws Exception {
    watched(Source.Lane.BULK, 0);
    advance(Duration.ofHours(1));

    assertThat(metrics.longestStall()).isEmpty();
    assertThat(stalledSeconds("bulk")).isZero();
  }

  @Test
  void aLaneHoldingEntriesIsStalledForAsLongAsItHasNotMoved() throws Exception {
    watched(Source.Lane.BULK, 3);
    advance(Duration.ofMinutes(6));

    assertThat(metrics.longestStall())
        .contains(new LaneStall(Source.Lane.BULK, Duration.ofMinutes(6), 3));
    assertThat(stalledSeconds("bulk")).isEqualTo(360);
  }

  @Test
  void movingEndsTheStall() throws Exception {
    LaneProgress progress = watched(Source.Lane.BULK, 3);
    advance(Duration.ofMinutes(6));

    progress.beat();

    assertThat(metrics.longestStall()).isEmpty();
  }

  @Test
  void theLongestStalledLaneIsReported() throws Exception {
    watched(Source.Lane.BULK, 3);
    advance(Duration.ofMinutes(2));
    watched(Source.Lane.STREAMING, 1);
    advance(Duration.ofMinutes(1));

    assertThat(metrics.longestStall()).map(LaneStall::lane).contains(Source.Lane.BULK);
  }

  @Test
  void aFinishedRunsLaneIsNoLongerReported() throws Exception {
    LaneProgress progress = watched(Source.Lane.BULK, 3);
    advance(Duration.ofMinutes(6));

    metrics.unwatch(Source.Lane.BULK, progress);

    assertThat(metrics.longestStall()).isEmpty();
  }

  private Runs.Running run(ScriptedSink sink) {
    PipelineEnvironment environment =
        new PipelineEnvironment(
            Clock.systemUTC(), ticker, new Random(1), new NamedThreadFactory("test"));
    ScriptedSource endless =
        new ScriptedSource(
            "elf", Source.Lane.BULK, 10_000, i -> keyed("eventlogfile", "elf:Login", i), true);
    return Runs.start(
        Pipeline.builder(
                List.of(endless), sink, new FakeCheckpointStore(), new FakeTerm(1), environment)
            .lanes(Runs.lanes(10, 100, 0))
            .backoff(Backoff.fixed(Duration.ofMillis(10)))
            .metrics(metrics)
            .build());
  }

  /** Lets Loki recover and the run drain: the frozen ticker never lets its grace expire. */
  private static void end(Runs.Running run, ScriptedSink sink) throws Exception {
    sink.failRetryably(0).release();
    run.stop().requestStop();
    run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
  }

  @Test
  void aPushThatHangsStallsItsLaneOnceNothingMoves() throws Exception {
    ScriptedSink sink = new ScriptedSink().stallWhen(batch -> true);
    Runs.Running run = run(sink);

    // Time passes in steps until the lane's last move is a whole bound behind.
    await()
        .atMost(TestTiming.seconds(20))
        .until(
            () -> {
              advance(Duration.ofMinutes(1));
              return metrics
                  .longestStall()
                  .filter(s -> s.duration().compareTo(Duration.ofMinutes(5)) >= 0)
                  .isPresent();
            });
    assertThat(metrics.longestStall().orElseThrow().queuedEntries()).isPositive();
    end(run, sink);
  }

  @Test
  void aLaneRetryingAFailingPushIsNotStalled() throws Exception {
    ScriptedSink sink = new ScriptedSink().failRetryably(Integer.MAX_VALUE);
    Runs.Running run = run(sink);
    await().atMost(TestTiming.seconds(20)).until(() -> !sink.attempts().isEmpty());

    advance(Duration.ofMinutes(10));
    int attempts = sink.attempts().size();
    // The attempt after next started after the one in flight ended and moved the lane.
    await().atMost(TestTiming.seconds(20)).until(() -> sink.attempts().size() > attempts + 1);

    assertThat(metrics.longestStall()).isEmpty();
    end(run, sink);
  }
}
