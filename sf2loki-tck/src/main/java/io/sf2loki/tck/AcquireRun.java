package io.sf2loki.tck;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.EngineSettings;
import io.sf2loki.engine.EngineStatus;
import io.sf2loki.engine.FailurePolicy;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * An engine with no sources over one store and one kind of coordinator, on its own thread: how a
 * real store's or coordinator's failures at acquire end. A permanent one ends the engine ({@link
 * EngineOutcome.Failed}, exit 1) at its last attempt; a transient one backs off, counted, until the
 * backend answers and the term runs (with no sources it finishes at once: {@link
 * EngineOutcome.Finished}). Waits are the {@link #FAST} policy's milliseconds, or long ones a test
 * ends with {@link #stop()}; nothing here sleeps. The engine's own clock is fixed and its jitter
 * none: the store and the coordinator get the test's.
 */
public final class AcquireRun implements AutoCloseable {

  /** Three attempts, waits of 1 to 4 ms. */
  public static final FailurePolicy FAST =
      new FailurePolicy(3, Duration.ofMillis(1), Duration.ofMillis(4));

  private static final RandomGenerator NO_JITTER = () -> 0L;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicInteger campaigns = new AtomicInteger();
  private final StopTrigger stop = new StopTrigger();
  private final CompletableFuture<EngineOutcome> outcome = new CompletableFuture<>();
  private final Engine engine;

  private AcquireRun(
      CheckpointStore store, Supplier<Coordinator> coordinators, FailurePolicy policy) {
    // No sources, so no lag to measure on a wall clock; no jitter, so the waits are the floors.
    EngineEnvironment environment =
        new EngineEnvironment(
            Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC),
            Ticker.SYSTEM,
            NO_JITTER,
            new NamedThreadFactory("acquire"),
            registry);
    Supplier<Coordinator> counted =
        () -> {
          campaigns.incrementAndGet();
          return coordinators.get();
        };
    engine =
        Engine.builder(counted, store, batch -> {}, List::of, environment)
            .settings(EngineSettings.defaults().withFailures(policy))
            .build();
    Thread t =
        new NamedThreadFactory("acquire-engine")
            .newThread(
                () -> {
                  try {
                    outcome.complete(engine.run(stop));
                  } catch (Throwable e) {
                    outcome.completeExceptionally(e);
                  }
                });
    t.start();
  }

  /** Runs an engine over {@code store}, campaigning with the coordinators {@code coordinators}. */
  public static AcquireRun start(
      CheckpointStore store, Supplier<Coordinator> coordinators, FailurePolicy policy) {
    return new AcquireRun(store, coordinators, policy);
  }

  /** Runs an engine over {@code store} under an always-leader, unfenced coordinator (as noop). */
  public static AcquireRun alwaysLeader(CheckpointStore store, FailurePolicy policy) {
    return new AcquireRun(store, AlwaysLeader::new, policy);
  }

  /** How the engine ended; waits for it. */
  public EngineOutcome outcome() throws Exception {
    return outcome.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
  }

  /** What the engine is doing now. */
  public EngineStatus status() {
    return engine.status();
  }

  /** The coordinators created so far: one per campaign. */
  public int campaigns() {
    return campaigns.get();
  }

  /** {@code sf2loki_engine_failures{kind,reason}}; 0 when never counted. */
  public double failures(String kind, String reason) {
    Counter c =
        registry.find("sf2loki_engine_failures").tag("kind", kind).tag("reason", reason).counter();
    return c == null ? 0 : c.count();
  }

  /** Requests the engine's stop. */
  public void stop() {
    stop.requestStop();
  }

  @Override
  public void close() {
    stop.requestStop();
  }

  /** One unfenced term per campaign, held until the engine ends the round. */
  private static final class AlwaysLeader implements Coordinator {
    @Override
    public void run(LeadershipListener listener, StopSignal stop) throws InterruptedException {
      FakeTerm term = FakeTerm.unfenced("test-host");
      listener.onAcquire(term);
      while (!stop.awaitStop(Duration.ofMinutes(1))) {
        // always leader
      }
      listener.onLose(term);
      term.lose();
    }

    @Override
    public void close() {}
  }
}
