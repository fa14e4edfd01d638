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
import io.sf2loki.engine.TermSources;
import io.sf2loki.pipeline.FakeCheckpointStore;
import io.sf2loki.pipeline.ScriptedSink;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.testkit.TestTiming;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /healthz} tells a hung engine from a waiting one: the engine's supervising thread beats on
 * the injected ticker (here a hand-driven one) while it works or waits, and a last beat older than
 * the liveness timeout (5m by default) turns {@code /healthz} 503.
 */
class EngineHeartbeatTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final AtomicLong nanos = new AtomicLong();
  private final ScriptedSink sink = new ScriptedSink();
  private final StopTrigger stop = new StopTrigger();
  private Engine engine;
  private HealthServer server;
  private CompletableFuture<EngineOutcome> run;

  private void start(Supplier<Coordinator> coordinators, TermSources sources) throws Exception {
    EngineEnvironment environment =
        new EngineEnvironment(
            Clock.systemUTC(),
            nanos::get,
            new Random(1),
            new NamedThreadFactory("test"),
            new SimpleMeterRegistry());
    engine =
        Engine.builder(coordinators, new FakeCheckpointStore(), sink, sources, environment)
            .shutdownGrace(Duration.ofHours(1))
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
    try {
      assertThat(run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(EngineOutcome.Stopped.class);
    } finally {
      server.close();
      engine.close();
    }
  }

  private HttpResponse<String> healthz() throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/healthz"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }

  /** Runs {@code body} as a coordinator's election loop. */
  private interface Election {
    void run(LeadershipListener listener, StopSignal stop) throws InterruptedException;
  }

  private static Coordinator coordinator(Election election) {
    return new Coordinator() {
      @Override
      public void run(LeadershipListener listener, StopSignal stop) throws InterruptedException {
        election.run(listener, stop);
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void aCoordinatorStuckInIoTurnsHealthzUnhealthyOnceTheHeartbeatIsOlderThanTheTimeout()
      throws Exception {
    CountDownLatch stuck = new CountDownLatch(1);
    CountDownLatch mountBack = new CountDownLatch(1);
    start(
        () ->
            coordinator(
                (listener, stop) -> {
                  stuck.countDown();
                  mountBack.await(); // a read of a hung mount: deaf to the stop signal
                }),
        List::of);
    assertThat(stuck.await(TestTiming.seconds(20).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(healthz().statusCode()).isEqualTo(200);

    advance(Duration.ofMinutes(5).plusSeconds(12));

    HttpResponse<String> r = healthz();
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).isEqualTo("unhealthy: engine heartbeat stale for 312s\n");
    stop.requestStop();
    mountBack.countDown();
  }

  @Test
  void aStandbyWaitingForLeadershipKeepsBeating() throws Exception {
    CountDownLatch campaigning = new CountDownLatch(1);
    start(
        () ->
            coordinator(
                (listener, stop) -> {
                  campaigning.countDown();
                  while (!stop.awaitStop(Duration.ofHours(1))) {
                    // the lease is held elsewhere: poll again
                  }
                }),
        List::of);
    assertThat(campaigning.await(TestTiming.seconds(20).toMillis(), TimeUnit.MILLISECONDS))
        .isTrue();

    advance(Duration.ofMinutes(10));

    await().atMost(TestTiming.seconds(10)).until(() -> healthz().statusCode() == 200);
  }

  @Test
  void aLongDrainKeepsBeating() throws Exception {
    sink.stallWhen(batch -> true); // Loki hangs: the drain waits for it, up to the 1h grace
    CountingSource endless = new CountingSource(Long.MAX_VALUE, Duration.ZERO);
    start(() -> new NoopCoordinator("node-a"), () -> List.of(endless));
    await().atMost(TestTiming.seconds(20)).until(() -> !sink.attempts().isEmpty());
    stop.requestStop(); // the engine's thread now waits for the term's drain

    advance(Duration.ofMinutes(10));
    await().atMost(TestTiming.seconds(10)).until(() -> healthz().statusCode() == 200);
    // The wake-up from the wait for the stop beat at the latest before this second jump: only the
    // wait for the drain can beat after it.
    advance(Duration.ofMinutes(10));

    await().atMost(TestTiming.seconds(10)).until(() -> healthz().statusCode() == 200);
    assertThat(run).as("still draining").isNotDone();
  }
}
