package io.sf2loki.daemon;

import static io.sf2loki.daemon.EngineRuns.runAsync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.EngineStatus;
import io.sf2loki.engine.Environments;
import io.sf2loki.loki.LokiSink;
import io.sf2loki.loki.LokiSinkConfig;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.file.FileStoreConfig;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica granted an epoch that another replica already recorded (a Lease deleted while it was
 * being taken) never runs that term: the claim at acquire is refused, the engine resigns and
 * campaigns again, and only the next, higher term moves data.
 */
class EpochClaimAtAcquireTest {

  @TempDir Path dir;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  /** Grants the scripted epochs, one per campaign, each until the engine stops the campaign. */
  private static final class ScriptedCoordinator implements Coordinator {
    private final long epoch;
    private final List<String> events;

    ScriptedCoordinator(long epoch, List<String> events) {
      this.epoch = epoch;
      this.events = events;
    }

    @Override
    public void run(LeadershipListener listener, StopSignal stop) throws InterruptedException {
      FakeTerm term = new FakeTerm("node-a", epoch);
      events.add("acquire " + epoch);
      listener.onAcquire(term);
      while (!stop.awaitStop(Duration.ofMinutes(1))) {
        // hold until the engine resigns or stops
      }
      listener.onLose(term); // drains and commits while still holding, as the real ones do
      term.lose();
      events.add("lose " + epoch);
    }

    @Override
    public void close() {}
  }

  @Test
  void termWhoseEpochAnotherReplicaClaimedFirstNeverRunsAndTheNextTermDoes() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    AtomicInteger campaign = new AtomicInteger();
    long[] script = {5, 6};
    try (FakeLoki loki = FakeLoki.start();
        FileCheckpointStore store = fileStore();
        FileCheckpointStore rival = fileStore()) {
      rival.claimEpoch(new FakeTerm("node-b", 5));
      LokiSink sink =
          LokiSink.builder(
                  LokiSinkConfig.forUrl(loki.baseUri().toString()), registry, Clock.systemUTC())
              .build();
      CountingSource source = new CountingSource(Long.MAX_VALUE, Duration.ofMillis(10));
      StopTrigger stop = new StopTrigger();
      try (Engine engine =
          Engine.builder(
                  () -> new ScriptedCoordinator(script[campaign.getAndIncrement()], events),
                  store,
                  sink,
                  () -> List.of(source),
                  Environments.engine(registry))
              .resignBackoff(Duration.ofMillis(50))
              .build()) {
        CompletableFuture<EngineOutcome> run = runAsync(engine, stop);
        await()
            .atMost(TestTiming.seconds(20))
            .until(() -> engine.status() instanceof EngineStatus.Leading l && l.epoch() == 6);
        await().atMost(TestTiming.seconds(20)).until(() -> !loki.lines().isEmpty());
        stop.requestStop();
        assertThat(run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
            .isInstanceOf(EngineOutcome.Stopped.class);
      }
      assertThat(events).startsWith("acquire 5", "lose 5", "acquire 6");
      assertThat(registry.get("sf2loki_fenced_commits").counter().count()).isEqualTo(1);
      assertThat(registry.get("sf2loki_epoch_claims_refused").counter().count()).isEqualTo(1);
      assertThat(registry.get("sf2loki_leadership_acquisitions").counter().count())
          .as("only the term that ran")
          .isEqualTo(1);
      assertThat(registry.get("sf2loki_leadership_losses").counter().count()).isEqualTo(1);
      assertThat(rival.persistedEpoch()).hasValue(6);
    }
  }

  private FileCheckpointStore fileStore() {
    return new FileCheckpointStore(
        FileStoreConfig.of(dir.resolve("state.json")),
        new StoreEnvironment(false, Clock.systemUTC(), registry),
        Ticker.SYSTEM);
  }
}
