package io.sf2loki.daemon;

import static io.sf2loki.daemon.EngineRuns.runAsync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.noop.NoopCoordinator;
import io.sf2loki.daemon.http.HealthServer;
import io.sf2loki.daemon.http.Liveness;
import io.sf2loki.daemon.http.Readiness;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.EngineStatus;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.pipeline.FakeCheckpointStore;
import io.sf2loki.pipeline.ScriptedSink;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.testkit.TestTiming;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /readyz} is 503 with a reason whenever a leader cannot make progress: a stalled pipeline
 * (a push that hangs), a term that ended under it (a fenced commit, a lost lease) until it stands
 * by. The engine's ticker is driven by hand.
 */
class LeaderReadinessTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final AtomicLong nanos = new AtomicLong();
  private final FakeCheckpointStore store = new FakeCheckpointStore();
  private final ScriptedSink sink = new ScriptedSink();
  private final StopTrigger stop = new StopTrigger();
  private final CountDownLatch handBack = new CountDownLatch(1);
  private Engine engine;
  private HealthServer server;
  private CompletableFuture<EngineOutcome> run;

  private void start(Supplier<Coordinator> coordinators) throws Exception {
    EngineEnvironment environment =
        new EngineEnvironment(
            Clock.systemUTC(),
            nanos::get,
            new Random(1),
            new NamedThreadFactory("test"),
            new SimpleMeterRegistry());
    CountingSource endless = new CountingSource(Long.MAX_VALUE, Duration.ofMillis(5));
    engine =
        Engine.builder(coordinators, store, sink, () -> List.of(endless), environment)
            .shutdownGrace(Duration.ofHours(1))
            .resignBackoff(Duration.ZERO)
            .build();
    server =
        HealthServer.start(
            "127.0.0.1",
            0,
            new Liveness(engine::staleHeartbeat),
            new Readiness(engine::status, Duration.ZERO, Clock.systemUTC()),
            () -> "");
    run = runAsync(engine, stop);
  }

  @AfterEach
  void stop() throws Exception {
    stop.requestStop();
    sink.release();
    handBack.countDown();
    try {
      assertThat(run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(EngineOutcome.Stopped.class);
    } finally {
      server.close();
      engine.close();
    }
  }

  private HttpResponse<String> readyz() throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/readyz")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The first campaign leads with {@code term} as {@code leader} scripts it; later ones wait. */
  private interface Script {
    void lead(FakeTerm term, LeadershipListener listener, StopSignal stop)
        throws InterruptedException;
  }

  private static Supplier<Coordinator> leadingOnceAs(Script leader) {
    AtomicInteger campaigns = new AtomicInteger();
    return () ->
        new Coordinator() {
          @Override
          public void run(LeadershipListener listener, StopSignal stop)
              throws InterruptedException {
            if (campaigns.getAndIncrement() == 0) {
              leader.lead(new FakeTerm("node-a", 5), listener, stop);
            }
            while (!stop.awaitStop(Duration.ofMinutes(1))) {
              // standing by: another replica holds the lease
            }
          }

          @Override
          public void close() {}
        };
  }

  @Test
  void aStalledPipelineTurnsReadyzUnreadyWithItsReason() throws Exception {
    sink.stallWhen(batch -> true); // a push that never returns
    start(() -> new NoopCoordinator("node-a"));
    await().atMost(TestTiming.seconds(20)).until(() -> !sink.attempts().isEmpty());
    assertThat(readyz().statusCode()).isEqualTo(200);

    // Time passes in steps until the lane's last move is a whole bound (5m) behind.
    await()
        .atMost(TestTiming.seconds(20))
        .until(
            () -> {
              nanos.addAndGet(Duration.ofMinutes(1).toNanos());
              return readyz().statusCode() == 503;
            });

    assertThat(readyz().body())
        .matches(
            "degraded: bulk lane stalled for \\d+m \\(\\d+ entries queued, nothing taken, pushed"
                + " or committed\\)\n");
  }

  @Test
  void aFencedCommitKeepsReadyzUnreadyUntilTheEngineStandsBy() throws Exception {
    start(
        leadingOnceAs(
            (term, listener, stop) -> {
              listener.onAcquire(term);
              while (!stop.awaitStop(Duration.ofMinutes(1))) {
                // renewing
              }
              handBack.await(); // a last renewal, a slow release: the term is not handed back yet
              listener.onLose(term);
              term.lose();
            }));
    await().atMost(TestTiming.seconds(20)).until(() -> !store.commits().isEmpty());
    assertThat(readyz().statusCode()).isEqualTo(200);

    store.commit(Map.of(CheckpointToken.RESERVED_EPOCH_KEY, "9"), Fence.NONE); // a newer leader

    await()
        .atMost(TestTiming.seconds(20))
        .until(() -> readyz().body().startsWith("fenced: epoch 5 ended, standing by: "));
    assertThat(readyz().statusCode()).isEqualTo(503);
    handBack.countDown();
    await().atMost(TestTiming.seconds(20)).until(() -> readyz().body().equals("standby\n"));
  }

  @Test
  void aLostLeaseKeepsReadyzUnreadyWhileThePipelineDrains() throws Exception {
    CountDownLatch leaseLost = new CountDownLatch(1);
    start(
        leadingOnceAs(
            (term, listener, stop) -> {
              listener.onAcquire(term);
              leaseLost.await();
              term.lose(); // revoked before onLose, as the lease coordinators do
              listener.onLose(term);
            }));
    await().atMost(TestTiming.seconds(20)).until(() -> !store.commits().isEmpty());
    sink.stallWhen(batch -> true); // the drain waits for Loki, up to the 1h grace

    leaseLost.countDown();

    await()
        .atMost(TestTiming.seconds(20))
        .until(
            () ->
                readyz().body().equals("fenced: epoch 5 ended, standing by: the lease was lost\n"));
    assertThat(engine.status()).isInstanceOf(EngineStatus.Fenced.class);
    sink.release();
    await().atMost(TestTiming.seconds(20)).until(() -> readyz().body().equals("standby\n"));
  }
}
