package io.sf2loki.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.Source;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The readiness input: since when pushes fail, from the earliest failing lane. */
class SinkFailingSinceTest {

  private final PipelineMetrics metrics = new PipelineMetrics(new SimpleMeterRegistry());
  private final Instant t0 = Instant.parse("2026-11-29T12:00:00Z");

  @Test
  void healthyLanesReportNothing() {
    assertThat(metrics.sinkFailingSince()).isEmpty();
  }

  @Test
  void firstRetryStartsTheClockAndLaterRetriesKeepIt() {
    metrics.pushRetried(Source.Lane.BULK, t0);
    metrics.pushRetried(Source.Lane.BULK, t0.plusSeconds(30));
    assertThat(metrics.sinkFailingSince()).contains(t0);
  }

  @Test
  void aNewRunOfTheLaneStartsHealthyWhateverTheLastTermLeftBehind() {
    metrics.pushRetried(Source.Lane.BULK, t0); // the term ended while this lane was retrying
    metrics.attach(Source.Lane.BULK, new LaneQueue(100, 0)); // the next term's pipeline
    assertThat(metrics.sinkFailingSince()).isEmpty();
  }

  @Test
  void earliestFailingLaneWins() {
    metrics.pushRetried(Source.Lane.STREAMING, t0.plusSeconds(10));
    metrics.pushRetried(Source.Lane.BULK, t0);
    assertThat(metrics.sinkFailingSince()).contains(t0);
  }

  @Test
  void successOrDeliberateDropClearsTheLane() {
    metrics.pushRetried(Source.Lane.BULK, t0);
    metrics.pushRetried(Source.Lane.STREAMING, t0.plusSeconds(5));
    metrics.pushSucceeded(Duration.ofMillis(5), t0.getEpochSecond());
    metrics.laneHealthy(Source.Lane.BULK);
    assertThat(metrics.sinkFailingSince()).contains(t0.plusSeconds(5));
    metrics.dropped(List.of(), "bad_request");
    metrics.laneHealthy(Source.Lane.STREAMING);
    assertThat(metrics.sinkFailingSince()).isEmpty();
  }
}
