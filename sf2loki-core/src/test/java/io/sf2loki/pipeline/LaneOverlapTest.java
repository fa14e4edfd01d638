package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.fast;
import static io.sf2loki.pipeline.Runs.keyed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A lane's batching stage overlaps its delivery stage through a one-batch hand-off: the next batch
 * is formed while the previous one is pushed, batches are still pushed and committed in the order
 * formed, and an abort abandons both the batch in push and the one waiting.
 */
class LaneOverlapTest {

  /** Batches of exactly 10 (no interval flush), a lane queue of 10 entries, no byte budget. */
  static final LaneConfig TENS =
      LaneConfig.defaults().withBatch(10, 1_048_576, Duration.ofHours(1), 10, 0);

  final FakeCheckpointStore store = new FakeCheckpointStore();
  final FakeTerm term = new FakeTerm(3);
  final ScriptedSink sink = new ScriptedSink();

  /** Emits its entries, counts down {@link #allEmitted}, then idles until the stop. */
  static final class Burst implements Source {
    final CountDownLatch allEmitted = new CountDownLatch(1);
    private final int count;
    private final IntFunction<LogEntry> entries;

    Burst(int count, IntFunction<LogEntry> entries) {
      this.count = count;
      this.entries = entries;
    }

    @Override
    public String name() {
      return "burst";
    }

    @Override
    public Lane lane() {
      return Lane.BULK;
    }

    @Override
    public void run(SourceContext ctx) throws InterruptedException {
      for (int i = 0; i < count; i++) {
        ctx.emit(entries.apply(i));
      }
      allEmitted.countDown();
      while (!ctx.awaitStop(Duration.ofSeconds(5))) {
        // idle like a poller between cycles
      }
    }
  }

  /** Key a for entries 0-9, b for 10-19, c for 20-29: one key per batch of ten. */
  static LogEntry perBatchKey(int i) {
    return keyed("eventlogfile", String.valueOf((char) ('a' + i / 10)), i);
  }

  @Test
  void nextBatchIsFormedAndHandedOffWhileThePreviousPushIsInFlight() throws Exception {
    sink.stallWhen(b -> true);
    Burst burst = new Burst(30, LaneOverlapTest::perBatchKey);
    Runs.Running run = Runs.start(fast(List.of(burst), sink, store, term).lanes(TENS).build());

    // 30 entries fit only if batch 1 is in push, batch 2 was formed and waits, and 10 are queued;
    // a lane that pushes serially holds batch 1 and 10 queued, and the 21st emit blocks.
    assertThat(burst.allEmitted.await(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS))
        .isTrue();
    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() == 1);
    assertThat(store.commits()).isEmpty();
    // batch 2 was also prepared (encoded, for Loki) while push 1 was in flight
    await().atMost(TestTiming.seconds(10)).until(() -> sink.prepared().size() == 2);
    assertThat(sink.prepared().get(0)).isSameAs(sink.attempts().get(0));

    sink.release();
    run.stop().requestStop();

    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
    assertThat(sink.lines())
        .containsExactlyElementsOf(
            IntStream.range(0, 30).mapToObj(i -> perBatchKey(i).line()).toList());
    assertThat(store.commits())
        .containsExactly(Map.of("a", "9"), Map.of("b", "19"), Map.of("c", "29"));
  }

  @Test
  void anErrorWhilePreparingFailsTheRunInsteadOfStallingTheLane() throws Exception {
    Sink nativeLibraryMissing =
        new Sink() {
          @Override
          public void push(Batch batch) {}

          @Override
          public void prepare(Batch batch) {
            throw new UnsatisfiedLinkError("no snappyjava in java.library.path");
          }
        };
    Burst burst = new Burst(30, LaneOverlapTest::perBatchKey);
    Runs.Running run =
        Runs.start(fast(List.of(burst), nativeLibraryMissing, store, term).lanes(TENS).build());

    PipelineOutcome outcome =
        run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    assertThat(outcome).isInstanceOf(PipelineOutcome.Failed.class);
    assertThat(((PipelineOutcome.Failed) outcome).cause()).isInstanceOf(UnsatisfiedLinkError.class);
    assertThat(store.commits()).isEmpty();
  }

  @Test
  void aCheckedExceptionAPushThrowsUndeclaredFailsTheRunInsteadOfCompletingIt() throws Exception {
    java.io.IOException undeclared = new java.io.IOException("thrown past the Sink contract");
    Sink sneaky =
        new Sink() {
          @Override
          public void push(Batch batch) {
            LaneOverlapTest.<RuntimeException>throwUnchecked(undeclared);
          }
        };

    PipelineOutcome outcome =
        Runs.start(
                fast(List.of(new Burst(30, LaneOverlapTest::perBatchKey)), sneaky, store, term)
                    .lanes(TENS)
                    .build())
            .outcome()
            .get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);

    assertThat(outcome).isEqualTo(new PipelineOutcome.Failed(undeclared));
    assertThat(store.commits()).isEmpty();
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void throwUnchecked(Throwable t) throws T {
    throw (T) t;
  }

  @Test
  void batchesArePushedAndCommittedInTheOrderFormedUnderRetries() throws Exception {
    sink.failRetryably(7);
    List<String> violations = new CopyOnWriteArrayList<>();
    store.beforeCommit(
        updates ->
            updates.forEach(
                (key, seq) -> {
                  if (!sink.lines().contains(key + "#" + seq)) {
                    violations.add(key + "=" + seq + " committed before its entry was pushed");
                  }
                }));
    Burst burst = new Burst(60, i -> keyed("eventlogfile", i % 2 == 0 ? "even" : "odd", i));

    Runs.Running run = Runs.start(fast(List.of(burst), sink, store, term).lanes(TENS).build());
    assertThat(burst.allEmitted.await(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS))
        .isTrue();
    run.stop().requestStop();

    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
    assertThat(violations).isEmpty();
    assertThat(sink.lines())
        .containsExactlyElementsOf(
            IntStream.range(0, 60).mapToObj(i -> (i % 2 == 0 ? "even#" : "odd#") + i).toList());
    assertThat(firstSeqOfEachDistinctBatch(sink.attempts())).containsExactly(0, 10, 20, 30, 40, 50);
    assertThat(store.commits()).hasSize(6);
    for (String key : List.of("even", "odd")) {
      List<Integer> committed =
          store.commits().stream().map(c -> Integer.parseInt(c.get(key))).toList();
      assertThat(committed).as(key).isSorted().doesNotHaveDuplicates();
    }
  }

  /** The batches in the order they were first attempted; a retried batch must not reappear. */
  static List<Integer> firstSeqOfEachDistinctBatch(List<Batch> attempts) {
    List<Integer> firsts = new ArrayList<>();
    Batch previous = null;
    for (Batch b : attempts) {
      if (b != previous) {
        String line = b.entries().get(0).line();
        firsts.add(Integer.parseInt(line.substring(line.indexOf('#') + 1)));
      }
      previous = b;
    }
    return firsts;
  }

  @Test
  void graceExpiryAbandonsTheBatchInPushAndTheBatchWaitingInTheHandoff() throws Exception {
    sink.stallWhen(b -> true);
    Burst burst = new Burst(30, LaneOverlapTest::perBatchKey);
    Runs.Running run =
        Runs.start(
            fast(List.of(burst), sink, store, term)
                .lanes(TENS)
                .shutdownGrace(Duration.ofMillis(200))
                .build());
    assertThat(burst.allEmitted.await(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS))
        .isTrue();

    run.stop().requestStop();

    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(2));
    assertThat(sink.attempts()).hasSize(1);
    assertThat(store.commits()).isEmpty();
  }

  @Test
  void abortBlocksTheKeysOfBothTheBatchInPushAndTheWaitingBatch() throws Exception {
    LaneQueue queue = new LaneQueue(10, 0);
    BatchHandoff handoff = new BatchHandoff(queue::wakeConsumer);
    RunControl control = new RunControl();
    PipelineMetrics metrics = new PipelineMetrics(new SimpleMeterRegistry());
    Committer committer = new Committer(store, term, metrics, Map.of(), Runs.noEgress(metrics));
    LaneShared shared =
        new LaneShared(
            sink.stallWhen(b -> true),
            committer,
            control,
            metrics,
            Ticker.SYSTEM,
            Clock.systemUTC(),
            Runs.noEgress(metrics));
    Batcher batcher = new Batcher(10, 1_048_576, Duration.ofHours(1));
    LaneProgress progress = new LaneProgress(Source.Lane.BULK, queue, Ticker.SYSTEM);
    Thread batching =
        new Thread(
            new LaneBatching(
                Source.Lane.BULK, queue, batcher, handoff, progress, shared, false, Duration.ZERO));
    Thread delivery =
        new Thread(
            new LaneDelivery(
                Source.Lane.BULK,
                handoff,
                progress,
                shared,
                Backoff.fixed(Duration.ofMillis(10)),
                Duration.ofSeconds(60),
                Thread::new,
                10_000,
                Duration.ZERO));
    batching.start();
    delivery.start();
    for (int i = 0; i < 30; i++) {
      queue.put(perBatchKey(i)); // the 30th put returns once batches a and b left the queue
    }
    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() == 1);

    // What PipelineRun.tearDown does after an abort, minus closing the committer.
    control.abort();
    queue.abort();
    handoff.abort();
    batching.interrupt();
    delivery.interrupt();
    batching.join(TestTiming.seconds(10).toMillis());
    delivery.join(TestTiming.seconds(10).toMillis());

    assertThat(batching.isAlive() || delivery.isAlive()).isFalse();
    assertThat(control.outcome()).isEqualTo(new PipelineOutcome.Stopped(2));
    assertThat(store.commits()).isEmpty();
    assertThat(sink.attempts()).hasSize(1); // batch b was never taken for a push
    committer.commit(Map.of("a", "99", "b", "99", "c", "1"));
    assertThat(store.commits()).containsExactly(Map.of("c", "1"));
    assertThat(workersDone(control)).isEqualTo(2);
  }

  static int workersDone(RunControl control) throws InterruptedException {
    int done = 0;
    for (RunControl.Event e = control.nextEvent(0); e != null; e = control.nextEvent(0)) {
      done += e == RunControl.Event.WORKER_DONE ? 1 : 0;
    }
    return done;
  }
}
