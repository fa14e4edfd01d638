package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.coordinate.noop.NoopCoordinator;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.testkit.TestTiming;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /healthz} tells a hung engine from a waiting one: the engine's supervising thread beats on
 * the injected ticker (here a hand-driven one) while it works or waits, and a last beat older than
 * the liveness timeout (5m by default) turns {@code /healthz} 503.
 */
class EngineHeartbeatTest {

  private final ProbedEngine probed = new ProbedEngine();

  @AfterEach
  void stop() throws Exception {
    probed.close();
  }

  private int healthz() throws Exception {
    return probed.get("/healthz").statusCode();
  }

  /** A coordinator whose election loop is {@code election}. */
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
    probed.start(
        () ->
            coordinator(
                (listener, stop) -> {
                  stuck.countDown();
                  mountBack.await(); // a read of a hung mount: deaf to the stop signal
                }),
        List::of);
    assertThat(stuck.await(TestTiming.seconds(20).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(healthz()).isEqualTo(200);

    probed.advance(Duration.ofMinutes(5).plusSeconds(12));

    HttpResponse<String> r = probed.get("/healthz");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).isEqualTo("unhealthy: engine heartbeat stale for 312s\n");
    probed.stop.requestStop();
    mountBack.countDown();
  }

  @Test
  void aStandbyWaitingForLeadershipKeepsBeating() throws Exception {
    CountDownLatch campaigning = new CountDownLatch(1);
    probed.start(
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

    probed.advance(Duration.ofMinutes(10));

    await().atMost(TestTiming.seconds(10)).until(() -> healthz() == 200);
  }

  @Test
  void aLongDrainKeepsBeating() throws Exception {
    probed.sink.stallWhen(batch -> true); // Loki hangs: the drain waits for it, up to the 1h grace
    CountingSource endless = new CountingSource(Long.MAX_VALUE, Duration.ZERO);
    probed.start(() -> new NoopCoordinator("node-a"), () -> List.of(endless));
    await().atMost(TestTiming.seconds(20)).until(() -> !probed.sink.attempts().isEmpty());
    probed.stop.requestStop(); // the engine's thread now waits for the term's drain

    probed.advance(Duration.ofMinutes(10));
    await().atMost(TestTiming.seconds(10)).until(() -> healthz() == 200);
    // The wake-up from the wait for the stop beat at the latest before this second jump: only the
    // wait for the drain can beat after it.
    probed.advance(Duration.ofMinutes(10));

    await().atMost(TestTiming.seconds(10)).until(() -> healthz() == 200);
    assertThat(probed.run()).as("still draining").isNotDone();
  }
}
