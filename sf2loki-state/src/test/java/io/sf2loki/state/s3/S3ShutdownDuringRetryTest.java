package io.sf2loki.state.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Pipeline;
import io.sf2loki.pipeline.PipelineEnvironment;
import io.sf2loki.pipeline.PipelineOutcome;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.state.s3.S3Fixture.Fault;
import io.sf2loki.state.s3.S3Fixture.FaultInjector;
import io.sf2loki.state.s3.S3Fixture.Point;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.testkit.TestTiming;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Shutdown while the final commit of a drain is still retrying against S3 answering 503 (s3proxy
 * behind the fault injector): the store's retry loop, which would go on for ten attempts with
 * second-long waits, is cancelled at the end of {@code service.shutdown_grace}, and the run returns
 * within the grace as stopped (the batch stays uncommitted and is re-read later).
 */
class S3ShutdownDuringRetryTest {

  private static final Duration GRACE = TestTiming.millis(500);
  private static final Duration SLACK = TestTiming.seconds(3);

  private S3Fixture s3;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeEach
  void startS3() throws Exception {
    s3 = new S3Fixture();
  }

  @AfterEach
  void stopS3() throws Exception {
    s3.stop();
  }

  /** Emits one entry with a checkpoint, then waits for the stop. */
  private static final class OneEntry implements Source {
    @Override
    public String name() {
      return "one";
    }

    @Override
    public void run(SourceContext ctx) throws InterruptedException {
      ctx.emit(
          LogEntry.of(
              1_000_000_000L,
              Map.of("job", "sf2loki", "source", "one"),
              "{\"n\": 1}",
              Map.of(),
              Optional.of(new CheckpointToken("one:k", "1"))));
      while (!ctx.awaitStop(Duration.ofSeconds(1))) {
        // keep the run open until the stop
      }
    }
  }

  private long puts() {
    synchronized (s3.faults) {
      return s3.faults.requests.stream().filter(r -> r.startsWith("PutObject")).count();
    }
  }

  @Test
  void shutdownDuringAStoreRetryOf503sReturnsWithinTheGrace() throws Exception {
    for (int i = 0; i < 20; i++) {
      s3.faults.add(
          new Fault(
              "PutObject", Point.BEFORE_SEND, FaultInjector.status(503, "ServiceUnavailable")));
    }
    RetryPolicy slowRetries =
        new RetryPolicy(10, Duration.ofSeconds(1), Duration.ofSeconds(2), Sleeper.SYSTEM, () -> 0);
    S3CheckpointStore store =
        new S3CheckpointStore(
            s3.client,
            S3Fixture.BUCKET,
            "shutdown/state.json",
            slowRetries,
            new StoreEnvironment(false, Clock.systemUTC(), registry));
    PipelineEnvironment environment =
        new PipelineEnvironment(
            Clock.systemUTC(), Ticker.SYSTEM, new Random(1), new NamedThreadFactory("test"));
    Pipeline pipeline =
        Pipeline.builder(
                List.of(new OneEntry()), batch -> {}, store, new FakeTerm("a", 1), environment)
            .shutdownGrace(GRACE)
            .joinTimeout(SLACK)
            .build();
    StopTrigger stop = new StopTrigger();
    AtomicLong stoppedAt = new AtomicLong();
    Thread stopper =
        new NamedThreadFactory("test-stopper")
            .newThread(
                () -> {
                  await().atMost(TestTiming.seconds(20)).until(() -> puts() >= 2);
                  stoppedAt.set(System.nanoTime());
                  stop.requestStop(); // while the commit waits between attempts
                });
    stopper.start();

    PipelineOutcome outcome =
        assertTimeoutPreemptively(TestTiming.seconds(20).plus(SLACK), () -> pipeline.run(stop));

    assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt.get())).isLessThan(GRACE.plus(SLACK));
    assertThat(outcome).isInstanceOf(PipelineOutcome.Stopped.class);
    assertThat(store.loadAll()).doesNotContainKey("one:k");
  }
}
