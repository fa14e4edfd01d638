package io.sf2loki.source.eventlogobjects;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.salesforce.testing.RecordingSourceContext;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.SourceEnvironment;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PollScheduleTest {

  /** The first wait of a run (every object is polled at startup) with the jitter at {@code j}. */
  private static Duration firstWait(double j) throws Exception {
    try (ObjectsHarness h = new ObjectsHarness()) {
      h.sf.eventLogObjects().define("LoginEventLog");
      SourceEnvironment env =
          new SourceEnvironment(
              h.clock,
              () -> h.clock.instant().toEpochMilli() * 1_000_000L,
              new Random(1),
              new NamedThreadFactory("test"),
              h.metrics,
              Map.of("job", "sf2loki"));
      RecordingSourceContext ctx =
          new RecordingSourceContext(h.clock, Map.of(), RecordingSourceContext.afterWaits(1));
      try (EventLogObjectsSource source =
          EventLogObjectsSourceProvider.create(
              ObjectsHarness.config("objects = [{name = LoginEventLog}], poll_interval = 5m"),
              h.rest,
              h.clock::instant,
              env,
              () -> j,
              () -> {})) {
        source.run(ctx);
      }
      return Duration.between(ObjectsHarness.START, h.clock.instant());
    }
  }

  @Test
  void pollIntervalIsTheLongestGapBetweenTwoPollsOfAnObject() throws Exception {
    // a row is read at most settle_window + poll_interval after its event only if no gap is longer
    for (double j : new double[] {-1, -0.5, 0, 0.5, 1}) {
      assertThat(firstWait(j)).as("jitter %s", j).isLessThanOrEqualTo(Duration.ofMinutes(5));
    }
  }

  @Test
  void jitterShortensAGapByUpToTenPercent() throws Exception {
    Duration tenPercentLess = Duration.ofSeconds(270);
    assertThat(firstWait(1)).isBetween(tenPercentLess.minusMillis(1), tenPercentLess);
    assertThat(firstWait(-1)).isBetween(tenPercentLess.minusMillis(1), tenPercentLess);
    assertThat(firstWait(0)).isEqualTo(Duration.ofMinutes(5));
  }
}
