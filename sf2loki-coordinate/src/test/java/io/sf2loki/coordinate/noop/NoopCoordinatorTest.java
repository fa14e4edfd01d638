package io.sf2loki.coordinate.noop;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.StopTrigger;
import io.sf2loki.tck.RecordingLeadershipListener;
import io.sf2loki.tck.RecordingLeadershipListener.Kind;
import io.sf2loki.testkit.TestTiming;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** noop: always leader, unfenced, one term until stop. */
class NoopCoordinatorTest {

  @Test
  void leadsUnfencedUntilStopThenLosesOnce() throws Exception {
    RecordingLeadershipListener listener = new RecordingLeadershipListener();
    StopTrigger stop = new StopTrigger();
    NoopCoordinator noop = new NoopCoordinator("host");
    Thread t = new Thread(() -> runQuietly(noop, listener, stop));
    t.start();
    org.awaitility.Awaitility.await()
        .atMost(TestTiming.seconds(5))
        .until(() -> listener.held().isPresent());
    assertThat(listener.held().orElseThrow().fencingEpoch()).isEmpty();
    assertThat(listener.held().orElseThrow().isCurrent()).isTrue();

    stop.requestStop();
    t.join(TestTiming.seconds(5).toMillis());

    assertThat(listener.events())
        .extracting(e -> e.kind())
        .containsExactly(Kind.ACQUIRE, Kind.LOSE);
    assertThat(listener.events().get(1).currentDuringCall()).isTrue();
    assertThat(listener.events().get(1).term().isCurrent()).isFalse();
    assertThat(listener.violations()).isEmpty();
  }

  @Test
  void hasNoInspector() {
    assertThat(new NoopCoordinatorProvider().configure(null).inspector(Clock.systemUTC(), Map.of()))
        .isEmpty();
  }

  private static void runQuietly(
      NoopCoordinator noop, RecordingLeadershipListener listener, StopTrigger stop) {
    try {
      noop.run(listener, stop);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
