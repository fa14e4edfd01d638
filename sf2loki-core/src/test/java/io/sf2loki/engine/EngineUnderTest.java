package io.sf2loki.engine;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.pipeline.ScriptedSink;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.OrgSession;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An engine over a {@link ScriptedCoordinator.Script} and a store, with no sources unless given,
 * running on its own thread. Its waits are real but short (the {@link #FAST} policy) or long enough
 * to be seen and ended by a stop; tests await states, they never sleep.
 */
final class EngineUnderTest implements AutoCloseable {

  /** Three attempts, waits of 1 to 4 ms. */
  static final FailurePolicy FAST =
      new FailurePolicy(3, Duration.ofMillis(1), Duration.ofMillis(4));

  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final ScriptedCoordinator.Script coordinators = new ScriptedCoordinator.Script();
  final Engine engine;
  private final StopTrigger stop = new StopTrigger();
  private final CompletableFuture<EngineOutcome> outcome = new CompletableFuture<>();

  EngineUnderTest(CheckpointStore store, FailurePolicy policy, TermSources sources, Ticker ticker) {
    this(store, policy, sources, ticker, List.of());
  }

  /** An engine that logs {@code sessions} in before its first campaign. */
  EngineUnderTest(
      CheckpointStore store,
      FailurePolicy policy,
      TermSources sources,
      Ticker ticker,
      List<OrgSession> sessions) {
    EngineEnvironment environment =
        new EngineEnvironment(
            Clock.systemUTC(), ticker, new Random(1), new NamedThreadFactory("test"), registry);
    engine =
        Engine.builder(coordinators, store, new ScriptedSink(), sources, environment)
            .settings(EngineSettings.defaults().withFailures(policy))
            .resignBackoff(Duration.ofMillis(1))
            .orgSessions(sessions)
            .build();
  }

  EngineUnderTest(CheckpointStore store, FailurePolicy policy) {
    this(store, policy, List::of, Ticker.SYSTEM);
  }

  EngineUnderTest start() {
    Thread t =
        new Thread(
            () -> {
              try {
                outcome.complete(engine.run(stop));
              } catch (Throwable e) {
                outcome.completeExceptionally(e);
              }
            },
            "engine-under-test");
    t.setDaemon(true);
    t.start();
    return this;
  }

  EngineOutcome outcome() throws Exception {
    return outcome.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
  }

  void stop() {
    stop.requestStop();
  }

  double failures(String kind, String reason) {
    var counter =
        registry.find("sf2loki_engine_failures").tag("kind", kind).tag("reason", reason).counter();
    return counter == null ? 0 : counter.count();
  }

  @Override
  public void close() {
    stop.requestStop();
    engine.close();
  }
}
