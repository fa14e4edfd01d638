package io.sf2loki.daemon;

import static io.sf2loki.daemon.EngineRuns.runAsync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.EngineStatus;
import io.sf2loki.engine.Environments;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.SinkEnvironment;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine composed from real stores, coordinators, sink and fake Loki. */
class EngineLifecycleTest {

  @TempDir Path dir;
  private FakeLoki loki;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeEach
  void startLoki() throws Exception {
    loki = FakeLoki.start();
  }

  @AfterEach
  void stopLoki() {
    loki.close();
  }

  private Sf2LokiConfig config(String coordinate) {
    String hocon =
        """
        salesforce { auth_mode = client_credentials, login_url = "https://acme.my.salesforce.com", client_id = x, client_secret = y }
        sink.loki { url = "%s", batch.flush_interval = 100ms }
        state.file.path = "%s"
        service.shutdown_grace = %dms
        %s
        """
            .formatted(
                loki.baseUri(),
                dir.resolve("state.json"),
                TestTiming.seconds(5).toMillis(),
                coordinate);
    return Sf2LokiConfig.bind(
        new ConfigLoader(getClass().getClassLoader(), Map.of()).loadString(hocon),
        getClass().getClassLoader());
  }

  private Engine engine(Sf2LokiConfig config, CountingSource source) throws Exception {
    CheckpointStore store =
        config
            .store()
            .create(new StoreEnvironment(!config.isCoordinated(), Clock.systemUTC(), registry));
    CoordinatorEnvironment coordination =
        new CoordinatorEnvironment(
            Clock.systemUTC(), Ticker.SYSTEM, Optional.of((EpochFloor) store), registry, Map.of());
    Sink sink =
        config.sink().create(new SinkEnvironment(Clock.systemUTC(), registry, new Random(1)));
    return Engine.builder(
            () -> config.coordinator().create(coordination),
            store,
            sink,
            () -> List.of(source),
            Environments.engine(registry))
        .lanes(config.lanes())
        .shutdownGrace(config.service().shutdownGrace())
        .build();
  }

  private String state() throws Exception {
    return Files.readString(dir.resolve("state.json"));
  }

  @Test
  void finiteRunDeliversEverythingCommitsAndFinishes() throws Exception {
    try (Engine engine =
        engine(config("coordinate.type = noop"), new CountingSource(50, Duration.ZERO))) {
      EngineOutcome outcome = engine.run(new StopTrigger());
      assertThat(outcome).isInstanceOf(EngineOutcome.Finished.class);
    }
    assertThat(loki.lines()).hasSize(50).contains("{\"n\":1}", "{\"n\":50}");
    assertThat(state()).contains("\"test:counter\": \"50\"");
  }

  @Test
  void stopDrainsCommitsAndReturnsStopped() throws Exception {
    StopTrigger stop = new StopTrigger();
    try (Engine engine =
        engine(
            config("coordinate.type = noop"),
            new CountingSource(Long.MAX_VALUE, Duration.ofMillis(5)))) {
      CompletableFuture<EngineOutcome> run = runAsync(engine, stop);
      await().atMost(TestTiming.seconds(20)).until(() -> loki.lines().size() >= 20);
      stop.requestStop();
      assertThat(run.get(TestTiming.seconds(20).toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(EngineOutcome.Stopped.class);
    }
    long committed =
        Long.parseLong(state().replaceAll(".*\"test:counter\": \"(\\d+)\".*", "$1").strip());
    assertThat(committed).isEqualTo(loki.lines().size());
  }

  @Test
  void fencedCommitReturnsToStandbyAndTheProcessLeadsAgainAboveTheNewEpoch() throws Exception {
    Sf2LokiConfig config =
        config(
            "coordinate { type = file_lease, file_lease { path = \""
                + dir.resolve("leader.lease")
                + "\", ttl = 2s, renew_interval = 500ms, holder_id = node-a } }");
    StopTrigger stop = new StopTrigger();
    try (Engine engine = engine(config, new CountingSource(Long.MAX_VALUE, Duration.ofMillis(10)));
        CheckpointStore operator =
            config.store().create(new StoreEnvironment(false, Clock.systemUTC(), registry))) {
      CompletableFuture<EngineOutcome> run = runAsync(engine, stop);
      await()
          .atMost(TestTiming.seconds(20))
          .until(() -> engine.status() instanceof EngineStatus.Leading);
      long first = ((EngineStatus.Leading) engine.status()).epoch();
      // A newer leader advanced the store: the next commit of this term must be fenced.
      operator.commit(Map.of("__fence_epoch__", Long.toString(first + 5)), Fence.NONE);
      await()
          .atMost(TestTiming.seconds(30))
          .until(
              () ->
                  engine.status() instanceof EngineStatus.Leading leading
                      && leading.epoch() > first + 5);
      assertThat(run).isNotDone();
      assertThat(registry.get("sf2loki_fenced_commits").counter().count())
          .isGreaterThanOrEqualTo(1);
      int before = loki.lines().size();
      await().atMost(TestTiming.seconds(20)).until(() -> loki.lines().size() > before + 10);
      stop.requestStop();
      assertThat(run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(EngineOutcome.Stopped.class);
    }
    assertThat(Files.exists(dir.resolve("leader.lease"))).as("released at stop").isTrue();
  }
}
