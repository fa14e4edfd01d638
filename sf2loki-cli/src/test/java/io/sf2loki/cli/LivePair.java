package io.sf2loki.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.EngineStatus;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Two engines composed from HOCON as the daemon composes them, one per holder, each on its own
 * thread: an HA pair in one JVM, so the CLI under test meets a live leader and standby.
 */
final class LivePair implements AutoCloseable {

  private final List<Engine> engines = new ArrayList<>();
  private final List<StopTrigger> stops = new ArrayList<>();
  private final List<CompletableFuture<EngineOutcome>> runs = new ArrayList<>();

  /** Starts one engine per HOCON document (each names its own holder). */
  static LivePair start(List<String> configs) {
    LivePair pair = new LivePair();
    for (String hocon : configs) {
      Sf2LokiConfig config =
          Sf2LokiConfig.bind(
              new ConfigLoader(LivePair.class.getClassLoader(), Map.of()).loadString(hocon),
              LivePair.class.getClassLoader());
      EngineEnvironment environment =
          new EngineEnvironment(
              Clock.systemUTC(),
              Ticker.SYSTEM,
              new Random(),
              new NamedThreadFactory("pair-" + pair.engines.size()),
              new SimpleMeterRegistry());
      Engine engine = ConfiguredEngine.create(config, environment, Map.of());
      StopTrigger stop = new StopTrigger();
      CompletableFuture<EngineOutcome> run = new CompletableFuture<>();
      Thread thread =
          new NamedThreadFactory("pair-engine-" + pair.engines.size())
              .newThread(
                  () -> {
                    try {
                      run.complete(engine.run(stop));
                    } catch (Exception e) {
                      run.completeExceptionally(e);
                    }
                  });
      thread.start();
      pair.engines.add(engine);
      pair.stops.add(stop);
      pair.runs.add(run);
    }
    return pair;
  }

  /** The epoch of the engine that leads now, if one does. */
  Optional<Long> leaderEpoch() {
    return engines.stream()
        .map(Engine::status)
        .filter(EngineStatus.Leading.class::isInstance)
        .map(s -> ((EngineStatus.Leading) s).epoch())
        .findFirst();
  }

  /** How many engines lead now. */
  long leaders() {
    return engines.stream()
        .map(Engine::status)
        .filter(EngineStatus.Leading.class::isInstance)
        .count();
  }

  /** True while no engine has ended (a fenced leader stands by, it does not exit). */
  boolean allRunning() {
    return runs.stream().noneMatch(CompletableFuture::isDone);
  }

  @Override
  public void close() throws ExecutionException, TimeoutException {
    stops.forEach(StopTrigger::requestStop);
    try {
      for (CompletableFuture<EngineOutcome> run : runs) {
        run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while the pair stopped", e);
    } finally {
      engines.forEach(Engine::close);
    }
  }
}
