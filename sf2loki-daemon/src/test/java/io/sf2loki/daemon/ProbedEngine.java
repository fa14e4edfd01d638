package io.sf2loki.daemon;

import static io.sf2loki.daemon.EngineRuns.runAsync;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * An engine on a hand-driven ticker, with an in-memory store and a scripted sink, behind the
 * daemon's own health server, running on its own thread (a 1h drain budget, no pause between
 * campaigns). Closing it lets Loki recover, stops the engine and expects it to end as stopped.
 */
final class ProbedEngine {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  final FakeCheckpointStore store = new FakeCheckpointStore();
  final ScriptedSink sink = new ScriptedSink();
  final StopTrigger stop = new StopTrigger();
  private final AtomicLong nanos = new AtomicLong();
  private Engine engine;
  private HealthServer server;
  private CompletableFuture<EngineOutcome> run;

  /** Builds the engine and its health server and starts the run. */
  void start(Supplier<Coordinator> coordinators, TermSources sources) throws IOException {
    EngineEnvironment environment =
        new EngineEnvironment(
            Clock.systemUTC(),
            nanos::get,
            new Random(1),
            new NamedThreadFactory("test"),
            new SimpleMeterRegistry());
    engine =
        Engine.builder(coordinators, store, sink, sources, environment)
            .shutdownGrace(Duration.ofHours(1))
            .resignBackoff(Duration.ZERO)
            .build();
    server =
        HealthServer.start(
            "127.0.0.1",
            0,
            new Liveness(engine::staleHeartbeat),
            new Readiness(engine::status, Duration.ZERO, Clock.systemUTC()),
            () -> "",
            new SimpleMeterRegistry());
    run = runAsync(engine, stop);
  }

  Engine engine() {
    return engine;
  }

  CompletableFuture<EngineOutcome> run() {
    return run;
  }

  /** The engine's ticker moves on by {@code d}. */
  void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }

  /** {@code GET path} on the health server. */
  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Lets Loki recover, stops the engine and expects it to end as stopped; then closes. */
  void close() throws Exception {
    if (run == null) {
      return;
    }
    stop.requestStop();
    sink.failRetryably(0).release();
    try {
      assertThat(run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(EngineOutcome.Stopped.class);
    } finally {
      server.close();
      engine.close();
    }
  }
}
