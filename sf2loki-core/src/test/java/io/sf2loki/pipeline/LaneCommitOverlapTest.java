package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.fast;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.config.LaneConfig;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A lane commits on its commit thread while it pushes the next batches: a slow store write is not
 * part of the next batch's wait. Each commit still follows its own push, the commits keep the order
 * of the batches, and the batches delivered during a write go together in the next one, up to the
 * lane queue's entry bound.
 */
class LaneCommitOverlapTest {

  final FakeCheckpointStore store = new FakeCheckpointStore();
  final FakeTerm term = new FakeTerm(3);
  final ScriptedSink sink = new ScriptedSink();
  final CountDownLatch firstWriteMayEnd = new CountDownLatch(1);
  final List<Map<String, String>> begun = new CopyOnWriteArrayList<>();

  LaneCommitOverlapTest() {
    store.beforeCommit(
        updates -> {
          begun.add(Map.copyOf(updates));
          if (updates.containsKey("a")) {
            sink.release(); // a is being written alone: the next batches may be pushed
            awaitUninterruptibly(firstWriteMayEnd); // a slow write: an fsync, a store round trip
          }
        });
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      latch.await(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Runs.Running burstOfThreeBatches() throws InterruptedException {
    LaneOverlapTest.Burst burst = new LaneOverlapTest.Burst(30, LaneOverlapTest::perBatchKey);
    Runs.Running run =
        Runs.start(fast(List.of(burst), sink, store, term).lanes(LaneOverlapTest.TENS).build());
    assertThat(burst.allEmitted.await(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS))
        .isTrue();
    return run;
  }

  /**
   * Batches of 10, and up to 20 delivered entries may wait for a write besides the one in flight.
   */
  private Runs.Running burstOfBatches(int batches) throws InterruptedException {
    sink.stallWhen(b -> !b.lastCheckpointPerKey().containsKey("a"));
    LaneOverlapTest.Burst burst =
        new LaneOverlapTest.Burst(10 * batches, LaneOverlapTest::perBatchKey);
    Runs.Running run =
        Runs.start(
            fast(List.of(burst), sink, store, term)
                .lanes(LaneConfig.defaults().withBatch(10, 1_048_576, Duration.ofHours(1), 20, 0))
                .build());
    assertThat(burst.allEmitted.await(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS))
        .isTrue();
    return run;
  }

  @Test
  void theLaneGoesOnPushingWhileACheckpointWriteIsSlow() throws Exception {
    Runs.Running run = burstOfBatches(4);

    // a's write is held: b and c are pushed meanwhile, not only b
    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() >= 3);
    assertThat(begun).containsExactly(Map.of("a", "9"));

    firstWriteMayEnd.countDown();
    run.stop().requestStop();
    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
  }

  @Test
  void theBatchesDeliveredDuringAWriteAreCommittedTogetherInTheNextOneInOrder() throws Exception {
    Runs.Running run = burstOfBatches(4);
    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() >= 3);

    firstWriteMayEnd.countDown();
    run.stop().requestStop();
    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
    assertThat(store.commits())
        .containsExactly(Map.of("a", "9"), Map.of("b", "19", "c", "29"), Map.of("d", "39"));
  }

  @Test
  void theLaneWaitsOnceTheEntriesWaitingForAWriteReachTheLaneQueueBound() throws Exception {
    Runs.Running run = burstOfBatches(5);
    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() >= 4);

    // b and c (20 entries) wait for a's write: d, pushed, waits to be queued; e is not taken
    await()
        .during(TestTiming.millis(300))
        .atMost(TestTiming.seconds(10))
        .until(() -> sink.attempts().size() == 4);

    firstWriteMayEnd.countDown();
    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() == 5);
    run.stop().requestStop();
    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
  }

  @Test
  void checkpointsQueuedWhenTheLeaseIsLostAreNeverWritten() throws Exception {
    Runs.Running run = burstOfBatches(5);
    // b and c delivered during a's write wait in the queue; d, delivered, waits for room
    // (e may still be pushed before the refused write stops the lane: pushing is harmless)
    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() >= 4);

    term.revoke(); // the lease is lost while a's write is in flight
    firstWriteMayEnd.countDown();

    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isInstanceOf(PipelineOutcome.LostLeadership.class);
    assertThat(begun).containsExactly(Map.of("a", "9")); // nothing queued reached a write
    assertThat(store.commits()).containsExactly(Map.of("a", "9")); // nor d's nor e's
  }

  @Test
  void aFailedWriteOfQueuedCheckpointsFailsTheRunAndNoLaterCheckpointIsWritten() throws Exception {
    Runs.Running run = burstOfBatches(4);
    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() >= 3);

    IllegalStateException broken = new IllegalStateException("disk full");
    store.failNextCommit(broken); // the write of b and c, queued during a's
    firstWriteMayEnd.countDown();

    PipelineOutcome outcome =
        run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    assertThat(outcome).isInstanceOf(PipelineOutcome.Failed.class);
    assertThat(((PipelineOutcome.Failed) outcome).cause()).isSameAs(broken);
    assertThat(store.commits()).containsExactly(Map.of("a", "9")); // d never skips past b and c
  }

  @Test
  void theNextBatchIsPushedWhileThePreviousBatchsCommitIsBeingWritten() throws Exception {
    Runs.Running run = burstOfThreeBatches();

    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() >= 2);
    assertThat(begun).containsExactly(Map.of("a", "9")); // still writing batch a's checkpoint

    firstWriteMayEnd.countDown();
    run.stop().requestStop();
    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
    assertThat(sink.lines())
        .containsExactlyElementsOf(
            IntStream.range(0, 30).mapToObj(i -> LaneOverlapTest.perBatchKey(i).line()).toList());
  }

  @Test
  void aBatchsCommitWaitsForThePreviousCommitAndTheCommitsKeepTheBatchesOrder() throws Exception {
    Runs.Running run = burstOfThreeBatches();

    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() >= 2);
    // b is delivered; its commit does not start (nor merge into a's write) before a's ended
    await()
        .during(TestTiming.millis(300))
        .atMost(TestTiming.seconds(10))
        .until(() -> begun.equals(List.of(Map.of("a", "9"))));

    firstWriteMayEnd.countDown();
    run.stop().requestStop();
    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
    assertThat(store.commits())
        .containsExactly(Map.of("a", "9"), Map.of("b", "19"), Map.of("c", "29"));
  }
}
