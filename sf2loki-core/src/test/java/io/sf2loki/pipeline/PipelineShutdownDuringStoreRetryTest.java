package io.sf2loki.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.Source;
import io.sf2loki.spi.StoreUnavailableException;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A stop while a checkpoint commit is still retrying against an unavailable store (backoff sleeps
 * between attempts, as the object stores' retry loop does on 503s): the run ends within the drain's
 * grace, the commit is interrupted rather than waited for, and the run counts as stopped, not
 * failed.
 */
class PipelineShutdownDuringStoreRetryTest {

  private static final Duration GRACE = TestTiming.millis(500);

  @Test
  void aStopDuringAStoreRetryEndsTheRunWithinTheGrace() throws Exception {
    CountDownLatch retrying = new CountDownLatch(1);
    FakeCheckpointStore store = new FakeCheckpointStore();
    store.beforeCommit(
        updates -> {
          retrying.countDown();
          try {
            // the backoff between attempts against a store answering 503: it only ends when the
            // stop interrupts it
            new CountDownLatch(1).await();
            throw new AssertionError("unreachable");
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while retrying", e);
          }
        });
    ScriptedSource source =
        new ScriptedSource("s", Source.Lane.BULK, 1, i -> Runs.keyed("s", "k", i), true);
    Pipeline pipeline =
        Runs.fast(List.of(source), new ScriptedSink(), store, new FakeTerm(1))
            .shutdownGrace(GRACE)
            .build();
    Runs.Running run = Runs.start(pipeline);
    assertThat(retrying.await(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    long stopped = System.nanoTime();

    run.stop().requestStop();
    PipelineOutcome outcome =
        run.outcome().get(GRACE.plus(TestTiming.seconds(3)).toMillis(), TimeUnit.MILLISECONDS);

    assertThat(Duration.ofNanos(System.nanoTime() - stopped))
        .isLessThan(GRACE.plus(TestTiming.seconds(3)));
    assertThat(outcome)
        .isInstanceOfSatisfying(
            PipelineOutcome.Stopped.class, s -> assertThat(s.abandonedBatches()).isEqualTo(1));
    assertThat(store.commits()).isEmpty();
  }
}
