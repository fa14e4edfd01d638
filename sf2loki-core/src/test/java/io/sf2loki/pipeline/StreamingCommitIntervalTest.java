package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.fast;
import static io.sf2loki.pipeline.Runs.keyed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code state.streaming_commit_interval} spaces the streaming lane's writes, not the bulk's. */
@Timeout(60)
class StreamingCommitIntervalTest {

  final FakeCheckpointStore store = new FakeCheckpointStore();
  final ScriptedSink sink = new ScriptedSink();

  /** Emits k = 0, then k = 1 once told to. */
  static final class TwoSteps implements Source {
    final CountDownLatch second = new CountDownLatch(1);
    private final Lane lane;

    TwoSteps(Lane lane) {
      this.lane = lane;
    }

    @Override
    public String name() {
      return "two-steps";
    }

    @Override
    public Lane lane() {
      return lane;
    }

    @Override
    public void run(SourceContext ctx) throws InterruptedException {
      ctx.emit(keyed("pubsub", "k", 0));
      second.await();
      ctx.emit(keyed("pubsub", "k", 1));
      while (!ctx.awaitStop(Duration.ofSeconds(5))) {
        // idle like a subscriber between events
      }
    }
  }

  private Runs.Running firstWrittenThenSecondDelivered(TwoSteps source) {
    Runs.Running run =
        Runs.start(
            fast(List.of(source), sink, store, new FakeTerm(1))
                .streamingCommitInterval(Duration.ofHours(1))
                .build());
    await().atMost(TestTiming.seconds(10)).until(() -> store.commits().size() == 1);
    source.second.countDown();
    await().atMost(TestTiming.seconds(10)).until(() -> sink.delivered().size() == 2);
    return run;
  }

  private void stop(Runs.Running run) throws Exception {
    run.stop().requestStop();
    assertThat(run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(new PipelineOutcome.Stopped(0));
  }

  @Test
  void theStreamingLaneWritesAgainOnlyAfterTheIntervalOrAtTheStop() throws Exception {
    Runs.Running run = firstWrittenThenSecondDelivered(new TwoSteps(Source.Lane.STREAMING));

    await()
        .during(TestTiming.millis(300))
        .atMost(TestTiming.seconds(10))
        .until(() -> store.commits().size() == 1);
    stop(run);
    assertThat(store.commits()).containsExactly(Map.of("k", "0"), Map.of("k", "1"));
  }

  @Test
  void theBulkLaneWritesAfterEveryDeliveredBatchWhateverTheInterval() throws Exception {
    Runs.Running run = firstWrittenThenSecondDelivered(new TwoSteps(Source.Lane.BULK));

    await().atMost(TestTiming.seconds(10)).until(() -> store.commits().size() == 2);
    assertThat(store.commits()).containsExactly(Map.of("k", "0"), Map.of("k", "1"));
    stop(run);
  }
}
