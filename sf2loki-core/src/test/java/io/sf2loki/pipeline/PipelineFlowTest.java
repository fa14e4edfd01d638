package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.fast;
import static io.sf2loki.pipeline.Runs.keyed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.Source.Lane;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PipelineFlowTest {

  final FakeCheckpointStore store = new FakeCheckpointStore();
  final FakeTerm term = new FakeTerm(1);
  final ScriptedSink sink = new ScriptedSink();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final PipelineMetrics metrics = new PipelineMetrics(registry);

  double gauge(String name, String lane) {
    return registry.get(name).tag("lane", lane).gauge().value();
  }

  double queueDepth() {
    return registry.get("sf2loki_queue_depth").gauge().value();
  }

  /**
   * Batches of 10 that are never flushed by time, so a scheduler pause of the source cannot form a
   * partial batch and change how many entries have left the queue.
   */
  static LaneConfig fullBatchesOnly() {
    return LaneConfig.defaults().withBatch(10, 1_048_576, Duration.ofMinutes(5), 100, 0);
  }

  /**
   * Waits until the source is blocked on a full lane with two batches out of it: the queue at its
   * bound (100), one batch of 10 held by the stalled push and one waiting in the hand-off, and
   * nothing more emitted for 300 ms.
   */
  void awaitBlockedOnAFullLaneWithTwoBatchesOut(ScriptedSource flood) {
    AtomicLong last = new AtomicLong(-1);
    await()
        .atMost(TestTiming.seconds(10))
        .during(Duration.ofMillis(300))
        .until(
            () -> {
              long emitted = flood.emitted();
              boolean unchanged = last.getAndSet(emitted) == emitted;
              return unchanged && emitted == 120 && queueDepth() == 100;
            });
  }

  @Test
  void stalledSinkBlocksProducersWithoutDroppingAndTheQueueStaysBounded() throws Exception {
    sink.stallWhen(b -> true);
    ScriptedSource flood =
        new ScriptedSource("elf", Lane.BULK, 1000, i -> keyed("eventlogfile", "k", i), false);
    Runs.Running run =
        Runs.start(
            fast(List.of(flood), sink, store, term)
                .lanes(fullBatchesOnly())
                .metrics(metrics)
                .build());

    awaitBlockedOnAFullLaneWithTwoBatchesOut(flood);
    assertThat(store.commits()).isEmpty();

    sink.release();

    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isInstanceOf(PipelineOutcome.Completed.class);
    assertThat(sink.lines())
        .containsExactlyElementsOf(IntStream.range(0, 1000).mapToObj(i -> "k#" + i).toList());
    assertThat(store.loadAll()).containsEntry("k", "999");
  }

  @Test
  void byteBudgetBoundsBufferedBytesWhileTheSinkStalls() throws Exception {
    sink.stallWhen(b -> true);
    String kib = "x".repeat(1024);
    ScriptedSource big =
        new ScriptedSource(
            "elf",
            Lane.BULK,
            500,
            i ->
                LogEntry.of(
                    Runs.T0 + i,
                    Map.of("source", "eventlogfile"),
                    kib + i,
                    Map.of(),
                    Optional.empty()),
            false);
    long budget = 20 * 1024;
    Runs.Running run =
        Runs.start(
            fast(List.of(big), sink, store, term)
                .lanes(Runs.lanes(10, 10_000, budget))
                .metrics(metrics)
                .build());

    await()
        .atMost(TestTiming.seconds(10))
        .until(() -> gauge("sf2loki_lane_queue_bytes", "bulk") > 0);
    await()
        .during(Duration.ofMillis(300))
        .atMost(TestTiming.seconds(10))
        .until(() -> big.emitted() < 40);
    assertThat(gauge("sf2loki_lane_queue_bytes", "bulk")).isLessThan(budget + 2 * 1024);

    sink.release();
    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isInstanceOf(PipelineOutcome.Completed.class);
    assertThat(sink.delivered()).hasSize(500);
  }

  @Test
  void floodingBulkLaneDoesNotDelayTheStreamingLane() throws Exception {
    sink.stallWhen(
        b -> b.entries().stream().anyMatch(e -> "eventlogfile".equals(e.labels().get("source"))));
    ScriptedSource bulk =
        new ScriptedSource("elf", Lane.BULK, 5000, i -> keyed("eventlogfile", "elf", i), false);
    ScriptedSource streaming =
        new ScriptedSource("ps", Lane.STREAMING, 30, i -> keyed("pubsub", "ps", i), true);
    Runs.Running run =
        Runs.start(fast(List.of(bulk, streaming), sink, store, term).metrics(metrics).build());

    await().atMost(TestTiming.seconds(10)).until(() -> sink.delivered().size() == 30);
    await().atMost(TestTiming.seconds(10)).until(() -> "29".equals(store.loadAll().get("ps")));
    assertThat(sink.delivered()).allMatch(e -> e.labels().get("source").equals("pubsub"));
    assertThat(bulk.emitted()).isLessThan(5000);
    assertThat(store.loadAll()).doesNotContainKey("elf");

    sink.release();
    run.stop().requestStop();
    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
  }

  @Test
  void batchesLargerThanTheLaneArriveWholeInOrderCountedAndCommitted() throws Exception {
    ScriptedSource source =
        new ScriptedSource("pubsub", Lane.STREAMING, 250, i -> keyed("pubsub", "k", i), true)
            .inBatchesOf(120); // the lane holds 100: each batch waits for room part way
    Runs.Running run =
        Runs.start(fast(List.of(source), sink, store, term).metrics(metrics).build());
    await().atMost(TestTiming.seconds(10)).until(() -> sink.delivered().size() == 250);

    run.stop().requestStop();

    run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    assertThat(sink.lines())
        .containsExactlyElementsOf(IntStream.range(0, 250).mapToObj(i -> "k#" + i).toList());
    assertThat(store.loadAll()).containsEntry("k", "249");
    assertThat(registry.get("sf2loki_events_ingested").counter().count()).isEqualTo(250);
  }

  @Test
  void gracefulStopDrainsAndCommitsEverythingQueued() throws Exception {
    ScriptedSource poller =
        new ScriptedSource("elf", Lane.BULK, 50, i -> keyed("eventlogfile", "k", i), true);
    Runs.Running run =
        Runs.start(
            fast(List.of(poller), sink, store, term)
                .lanes(Runs.lanes(1000, 1000, 0)) // only the interval or the final flush
                .metrics(metrics)
                .build());
    await().atMost(TestTiming.seconds(10)).until(() -> poller.emitted() == 50);

    run.stop().requestStop();

    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
    assertThat(sink.delivered()).hasSize(50);
    assertThat(store.loadAll()).containsEntry("k", "49");
  }

  @Test
  void batchUndeliverableWithinTheGraceIsAbandonedUncommitted() throws Exception {
    sink.failRetryably(Integer.MAX_VALUE);
    ScriptedSource poller =
        new ScriptedSource("elf", Lane.BULK, 5, i -> keyed("eventlogfile", "k", i), true);
    Runs.Running run =
        Runs.start(
            fast(List.of(poller), sink, store, term)
                .shutdownGrace(Duration.ofMillis(300))
                .metrics(metrics)
                .build());
    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() > 2);

    run.stop().requestStop();

    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(1));
    assertThat(store.commits()).isEmpty();
  }

  @Test
  void producerBlockedOnAFullLaneIsReleasedWhenTheGraceExpires() throws Exception {
    sink.stallWhen(b -> true);
    ScriptedSource flood =
        new ScriptedSource("elf", Lane.BULK, 10_000, i -> keyed("eventlogfile", "k", i), false);
    Runs.Running run =
        Runs.start(
            fast(List.of(flood), sink, store, term)
                .lanes(fullBatchesOnly())
                .shutdownGrace(Duration.ofMillis(200))
                .metrics(metrics)
                .build());
    awaitBlockedOnAFullLaneWithTwoBatchesOut(flood);

    run.stop().requestStop();

    // both formed batches are abandoned: the one in push and the one in the hand-off
    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(2));
    assertThat(store.commits()).isEmpty();
    assertThat(registry.get("sf2loki_queue_depth").gauge().value()).isZero();
  }
}
