package io.sf2loki.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.pipeline.Pipeline;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.Term;
import io.sf2loki.testkit.TestTiming;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a term starts and ends on the coordinator's thread: the epoch claim never runs there, so a
 * hung store cannot delay a lease renewal; a term the coordinator lost says why in the status.
 */
class TermStartTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final EngineEnvironment environment = Environments.engine(registry);
  private final CountDownLatch storeBack = new CountDownLatch(1);
  private final AtomicReference<EngineStatus> status =
      new AtomicReference<>(new EngineStatus.Standby());

  @AfterEach
  void tearDown() {
    storeBack.countDown();
  }

  /** A term its coordinator ended for {@code reason}. */
  private record LostTerm(long epoch, Optional<String> lossReason) implements Term {
    @Override
    public String holder() {
      return "node-a";
    }

    @Override
    public boolean isCurrent() {
      return lossReason.isEmpty();
    }
  }

  /** A store whose epoch claim blocks until the test brings it back (a hung state mount). */
  private final class HungClaimStore implements CheckpointStore, EpochClaim {
    volatile boolean hung;

    @Override
    public void claimEpoch(Term term) {
      while (hung && storeBack.getCount() > 0) {
        try {
          storeBack.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }

    @Override
    public Map<String, String> loadAll() {
      return Map.of();
    }

    @Override
    public Optional<String> load(String key) {
      return Optional.empty();
    }

    @Override
    public void commit(Map<String, String> updates, Fence fence) {}

    @Override
    public void delete(Set<String> keys, Fence fence) {}

    @Override
    public String location() {
      return "hung://state";
    }

    @Override
    public void close() {}
  }

  private TermRunner runner(CheckpointStore store) {
    return new TermRunner(
        store,
        term ->
            Pipeline.builder(List.of(), batch -> {}, store, term, environment.pipeline()).build(),
        TestTiming.seconds(5),
        new EngineMetrics(registry, "test"),
        environment.threads(),
        new Heartbeat(environment.ticker()),
        new TermRunner.Control() {
          @Override
          public void resign() {}

          @Override
          public void finish(EngineOutcome outcome) {}

          @Override
          public void failed(Throwable cause) {}

          @Override
          public void status(EngineStatus next) {
            status.set(next);
          }

          @Override
          public boolean ending() {
            return false;
          }
        });
  }

  @Test
  void acquireReturnsAtOnceWhileTheEpochClaimHangsAndTheTermLeadsWhenItLands() {
    HungClaimStore store = new HungClaimStore();
    store.hung = true;
    TermRunner runner = runner(store);

    assertTimeoutPreemptively(
        TestTiming.seconds(5), () -> runner.onAcquire(new LostTerm(7, Optional.empty())));
    assertThat(status.get()).isNotInstanceOf(EngineStatus.Leading.class);

    storeBack.countDown();

    await()
        .atMost(TestTiming.seconds(10))
        .until(() -> status.get() instanceof EngineStatus.Leading l && l.epoch() == 7);
  }

  @Test
  void aTermItsCoordinatorLostStandsByWithTheReason() {
    TermRunner runner = runner(new HungClaimStore());
    runner.onAcquire(new LostTerm(3, Optional.empty()));
    await()
        .atMost(TestTiming.seconds(10))
        .until(() -> status.get() instanceof EngineStatus.Leading);

    runner.onLose(new LostTerm(3, Optional.of("renewal could not complete in time")));

    assertThat(status.get())
        .isEqualTo(new EngineStatus.Standby(Optional.of("renewal could not complete in time")));
  }
}
