package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.keyed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.loki.LokiConfigs;
import io.sf2loki.loki.LokiSink;
import io.sf2loki.loki.RecordingSleeper;
import io.sf2loki.spi.Source.Lane;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A tenant Loki blocks (260, nothing stored) over the whole path: the lane keeps its batch and
 * retries, nothing is committed, and the pushes count as failing — the input of {@code /readyz}'s
 * {@code degraded: loki pushes failing for …} — until the block is lifted, when everything arrives.
 */
class PipelineLokiBlockedTest {

  static final String KEY = "elf:Login";
  static final int ENTRIES = 30;

  final FakeLoki loki = PipelineLokiTest.startLoki();
  final FakeCheckpointStore store = new FakeCheckpointStore();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final PipelineMetrics metrics = new PipelineMetrics(registry);

  @AfterEach
  void close() {
    loki.close();
  }

  @Test
  void aBlockedTenantsPushesFailNothingIsCommittedAndEverythingArrivesOnceLifted()
      throws Exception {
    loki.blockIngestion("tenant-1", Instant.now().plus(Duration.ofHours(1)));
    // Retries every 20 ms: the block's end (an hour away) is capped by max_retry_after.
    LaneConfig lanes =
        new LaneConfig(
            10,
            1_048_576,
            Duration.ofMillis(50),
            100,
            0,
            Duration.ofMillis(10),
            Duration.ofMillis(20),
            Duration.ofMillis(20),
            Duration.ofMillis(50),
            Duration.ZERO);
    ScriptedSource source =
        new ScriptedSource(KEY, Lane.BULK, ENTRIES, i -> keyed("eventlogfile", KEY, i), false);

    PipelineOutcome outcome;
    try (LokiSink sink =
        LokiSink.builder(LokiConfigs.to(loki.baseUri()).build(), registry, Clock.systemUTC())
            .sleeper(new RecordingSleeper())
            .build()) {
      Runs.Running run =
          Runs.start(
              Runs.fast(List.of(source), sink, store, new FakeTerm(1))
                  .lanes(lanes)
                  .metrics(metrics)
                  .build());

      await()
          .atMost(TestTiming.seconds(20))
          .until(() -> loki.pushes().size() >= 3 && metrics.sinkFailingSince().isPresent());
      assertThat(loki.entries()).isEmpty();
      assertThat(store.loadAll()).doesNotContainKey(KEY);
      assertThat(
              registry
                  .get("sf2loki_loki_ingestion_blocked")
                  .tag("tenant", "tenant-1")
                  .gauge()
                  .value())
          .isEqualTo(1.0);

      loki.unblockIngestion("tenant-1");
      outcome = run.outcome().get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    }

    assertThat(outcome).isEqualTo(new PipelineOutcome.Completed());
    assertThat(store.loadAll()).containsEntry(KEY, Integer.toString(ENTRIES - 1));
    assertThat(loki.lines()).hasSize(ENTRIES);
    assertThat(metrics.sinkFailingSince()).isEmpty();
  }
}
