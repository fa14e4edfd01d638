package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.coordinate.noop.NoopCoordinator;
import io.sf2loki.engine.EngineStatus;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.testkit.TestTiming;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /readyz} is 503 with a reason whenever a leader cannot make progress: a stalled pipeline
 * (a push that hangs), a term that ended under it (a fenced commit, a lost lease) until it stands
 * by. The engine's ticker is driven by hand.
 */
class LeaderReadinessTest {

  private final ProbedEngine probed = new ProbedEngine();
  private final CountDownLatch handBack = new CountDownLatch(1);

  @AfterEach
  void stop() throws Exception {
    handBack.countDown();
    probed.close();
  }

  private void start(Supplier<Coordinator> coordinators) throws Exception {
    CountingSource endless = new CountingSource(Long.MAX_VALUE, Duration.ofMillis(5));
    probed.start(coordinators, () -> List.of(endless));
  }

  private HttpResponse<String> readyz() throws Exception {
    return probed.get("/readyz");
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
    probed.sink.stallWhen(batch -> true); // a push that never returns
    start(() -> new NoopCoordinator("node-a"));
    await().atMost(TestTiming.seconds(20)).until(() -> !probed.sink.attempts().isEmpty());
    assertThat(readyz().statusCode()).isEqualTo(200);

    // Time passes in steps until the lane's last move is a whole bound (5m) behind.
    await()
        .atMost(TestTiming.seconds(20))
        .until(
            () -> {
              probed.advance(Duration.ofMinutes(1));
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
    await().atMost(TestTiming.seconds(20)).until(() -> !probed.store.commits().isEmpty());
    assertThat(readyz().statusCode()).isEqualTo(200);

    probed.store.commit(
        Map.of(CheckpointToken.RESERVED_EPOCH_KEY, "9"), Fence.NONE); // a newer leader

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
    await().atMost(TestTiming.seconds(20)).until(() -> !probed.store.commits().isEmpty());
    probed.sink.stallWhen(batch -> true); // the drain waits for Loki, up to the 1h grace

    leaseLost.countDown();

    await()
        .atMost(TestTiming.seconds(20))
        .until(
            () ->
                readyz().body().equals("fenced: epoch 5 ended, standing by: the lease was lost\n"));
    assertThat(probed.engine().status()).isInstanceOf(EngineStatus.Fenced.class);
    probed.sink.release();
    await().atMost(TestTiming.seconds(20)).until(() -> readyz().body().equals("standby\n"));
  }
}
