package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.keyed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An adaptive lane (the streaming lane) sends as soon as it is idle and batches only while a push
 * is in flight or a batch fills; the flush interval is an upper bound on the wait. The lane's
 * ticker is driven by hand and stands still unless a test advances it, so nothing here is sent
 * because an interval ran out unless the test says so.
 */
class AdaptiveBatchingTest {

  static final Duration INTERVAL = Duration.ofMillis(250);
  static final int MAX_ENTRIES = 10;

  final AtomicLong nanos = new AtomicLong();
  final Ticker ticker = nanos::get;
  final FakeCheckpointStore store = new FakeCheckpointStore();
  final ScriptedSink sink = new ScriptedSink();
  final LaneQueue queue = new LaneQueue(100, 0);
  final BatchHandoff handoff = new BatchHandoff(queue::wakeConsumer);
  final RunControl control = new RunControl();
  Thread batching;
  Thread delivery;

  static final Duration LINGER = Duration.ofMillis(1);

  /** Starts the streaming lane's two stages, as {@link PipelineRun} does, on the hand ticker. */
  void startLane() {
    startLane(Duration.ZERO);
  }

  void startLane(Duration linger) {
    PipelineMetrics metrics = new PipelineMetrics(new SimpleMeterRegistry());
    Committer committer =
        new Committer(store, new FakeTerm(3), metrics, Map.of(), Runs.noEgress(metrics));
    LaneShared shared =
        new LaneShared(
            sink, committer, control, metrics, ticker, Clock.systemUTC(), Runs.noEgress(metrics));
    LaneProgress progress = new LaneProgress(Source.Lane.STREAMING, queue, ticker);
    Batcher batcher = new Batcher(MAX_ENTRIES, 1_048_576, INTERVAL);
    batching =
        new Thread(
            new LaneBatching(
                Source.Lane.STREAMING, queue, batcher, handoff, progress, shared, true, linger));
    delivery =
        new Thread(
            new LaneDelivery(
                Source.Lane.STREAMING,
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
  }

  @AfterEach
  void stopLane() throws InterruptedException {
    sink.release();
    control.abort();
    queue.abort();
    handoff.abort();
    for (Thread t : new Thread[] {batching, delivery}) {
      if (t != null) {
        t.interrupt();
        t.join(TestTiming.seconds(10).toMillis());
      }
    }
  }

  static LogEntry event(int seq) {
    return keyed("pubsub", "login", seq);
  }

  void put(int fromInclusive, int toExclusive) throws InterruptedException {
    for (int i = fromInclusive; i < toExclusive; i++) {
      queue.put(event(i));
    }
  }

  static List<String> lines(Batch batch) {
    return batch.entries().stream().map(LogEntry::line).toList();
  }

  /** Pushes the first batch and holds it in flight until {@link ScriptedSink#release()}. */
  void firstPushInFlight() throws InterruptedException {
    sink.stallWhen(b -> b.entries().get(0).line().equals("login#0"));
    startLane();
    put(0, 1);
    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() == 1);
  }

  @Test
  void anIdleLaneSendsASingleEntryAtOnce() throws Exception {
    startLane();

    put(0, 1);

    await().atMost(TestTiming.seconds(10)).until(() -> store.commits().size() == 1);
    assertThat(sink.attempts())
        .singleElement()
        .extracting(AdaptiveBatchingTest::lines)
        .isEqualTo(List.of("login#0"));
    assertThat(store.commits()).containsExactly(Map.of("login", "0"));
  }

  @Test
  void whileAPushIsInFlightEntriesAccumulateIntoOneBatch() throws Exception {
    firstPushInFlight();

    put(1, 6);
    await().atMost(TestTiming.seconds(10)).until(() -> queue.size() == 0);
    assertThat(sink.prepared()).hasSize(1); // the five wait in the batcher, not in batches of one
    sink.release();

    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() == 2);
    assertThat(lines(sink.attempts().get(1)))
        .containsExactly("login#1", "login#2", "login#3", "login#4", "login#5");
  }

  @Test
  void aFullBatchGoesAtOnceWhileAPushIsInFlight() throws Exception {
    firstPushInFlight();

    put(1, 1 + MAX_ENTRIES);

    // formed and prepared (encoded) while push 1 is still in flight, without the interval passing
    await().atMost(TestTiming.seconds(10)).until(() -> sink.prepared().size() == 2);
    assertThat(sink.prepared().get(1).entries()).hasSize(MAX_ENTRIES);
    assertThat(sink.attempts()).hasSize(1);
  }

  @Test
  void theFlushIntervalStillCapsTheWaitWhileAPushIsInFlight() throws Exception {
    firstPushInFlight();
    put(1, 2);
    await().atMost(TestTiming.seconds(10)).until(() -> queue.size() == 0);
    assertThat(sink.prepared()).hasSize(1);

    nanos.addAndGet(INTERVAL.toNanos());

    await().atMost(TestTiming.seconds(10)).until(() -> sink.prepared().size() == 2);
    assertThat(lines(sink.prepared().get(1))).containsExactly("login#1");
    assertThat(sink.attempts()).hasSize(1); // push 1 still in flight: batch 2 waits its turn
  }

  /** Starts the lane with {@link #LINGER} and pushes event 0 at once (no batch before it). */
  void firstPushDoneWithLinger() throws InterruptedException {
    startLane(LINGER);
    put(0, 1);
    await().atMost(TestTiming.seconds(10)).until(() -> store.commits().size() == 1);
  }

  @Test
  void withinTheLingerAfterAPushAPartialBatchWaitsForMore() throws Exception {
    firstPushDoneWithLinger();

    put(1, 3);
    await().atMost(TestTiming.seconds(10)).until(() -> queue.size() == 0);
    put(3, 4);
    await().atMost(TestTiming.seconds(10)).until(() -> queue.size() == 0);
    assertThat(sink.prepared()).hasSize(1); // the ticker stands still: still within the linger

    nanos.addAndGet(LINGER.toNanos());

    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() == 2);
    assertThat(lines(sink.attempts().get(1))).containsExactly("login#1", "login#2", "login#3");
  }

  @Test
  void aFullBatchDoesNotWaitForTheLinger() throws Exception {
    firstPushDoneWithLinger();

    put(1, 1 + MAX_ENTRIES);

    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() == 2);
    assertThat(sink.attempts().get(1).entries()).hasSize(MAX_ENTRIES);
  }

  @Test
  void theFirstEntryGoesAtOnceWhateverTheTickerReads() throws Exception {
    nanos.set(Long.MAX_VALUE - 1_000); // a ticker may read any long; no batch before this one
    startLane(LINGER);

    put(0, 1);

    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() == 1);
  }

  @Test
  void anEntryAfterAQuietSpellLongerThanTheLingerGoesAtOnce() throws Exception {
    firstPushDoneWithLinger();
    nanos.addAndGet(LINGER.toNanos());

    put(1, 2);

    await().atMost(TestTiming.seconds(10)).until(() -> sink.attempts().size() == 2);
    assertThat(lines(sink.attempts().get(1))).containsExactly("login#1");
  }

  @Test
  void checkpointsAreCommittedOnlyAfterTheirBatchWasPushedAndInOrder() throws Exception {
    List<String> violations = new CopyOnWriteArrayList<>();
    store.beforeCommit(
        updates ->
            updates.forEach(
                (key, seq) -> {
                  if (!sink.lines().contains(key + "#" + seq)) {
                    violations.add(key + "=" + seq + " committed before its entry was pushed");
                  }
                }));
    firstPushInFlight();
    put(1, 40);
    assertThat(store.commits()).isEmpty(); // batch 1 is in flight: nothing committed yet

    sink.failRetryably(3);
    sink.release();

    await().atMost(TestTiming.seconds(10)).until(() -> sink.delivered().size() == 40);
    await().atMost(TestTiming.seconds(10)).until(() -> lastCommitted().equals("39"));
    assertThat(violations).isEmpty();
    assertThat(sink.lines())
        .containsExactlyElementsOf(IntStream.range(0, 40).mapToObj(i -> "login#" + i).toList());
    List<Integer> committed =
        store.commits().stream().map(c -> Integer.parseInt(c.get("login"))).toList();
    assertThat(committed).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void aRunsStreamingLaneSendsOnIdleAndItsBulkLaneWaitsForItsInterval() throws Exception {
    PipelineEnvironment stoppedTicker =
        new PipelineEnvironment(
            Clock.systemUTC(), ticker, new Random(1), new NamedThreadFactory("test"));
    ScriptedSource live =
        new ScriptedSource("pubsub", Source.Lane.STREAMING, 1, AdaptiveBatchingTest::event, true);
    ScriptedSource drain =
        new ScriptedSource(
            "eventlogfile", Source.Lane.BULK, 1, i -> keyed("eventlogfile", "elf", i), true);
    Runs.Running run =
        Runs.start(
            Pipeline.builder(List.of(live, drain), sink, store, new FakeTerm(3), stoppedTicker)
                .lanes(LaneConfig.defaults().withBatch(MAX_ENTRIES, 1_048_576, INTERVAL, 100, 0))
                .shutdownGrace(TestTiming.seconds(5))
                .joinTimeout(TestTiming.seconds(5))
                .build());

    await().atMost(TestTiming.seconds(10)).until(() -> sink.lines().contains("login#0"));
    assertThat(drain.emitted()).isEqualTo(1);
    assertThat(sink.lines()).doesNotContain("elf#0"); // held: its interval never ran out

    run.stop().requestStop();
    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
    assertThat(sink.lines()).containsExactlyInAnyOrder("login#0", "elf#0");
  }

  String lastCommitted() {
    List<Map<String, String>> commits = store.commits();
    return commits.isEmpty() ? "" : commits.get(commits.size() - 1).get("login");
  }
}
