package io.sf2loki.pipeline;

import io.sf2loki.config.EgressConfig;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.egress.EgressGovernor;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/** Fast pipeline settings and helpers for end-to-end tests. */
final class Runs {

  static final long T0 = Instant.now().minusSeconds(60).getEpochSecond() * 1_000_000_000L;

  private Runs() {}

  static LaneConfig lanes(int maxEntries, int queueEntries, long queueBytes) {
    return LaneConfig.defaults()
        .withBatch(maxEntries, 1_048_576, Duration.ofMillis(50), queueEntries, queueBytes);
  }

  static Pipeline.Builder fast(
      List<? extends Source> sources, Sink sink, CheckpointStore store, Fence fence) {
    return Pipeline.builder(sources, sink, store, fence, environment())
        .lanes(lanes(10, 100, 0))
        .backoff(Backoff.fixed(Duration.ofMillis(10)))
        .streamingCommitInterval(Duration.ZERO) // each batch's own write, as these tests count them
        .shutdownGrace(TestTiming.seconds(5))
        .joinTimeout(TestTiming.seconds(5));
  }

  /** A governor without budget or caps, as a run without {@code sink.loki.egress} has. */
  static EgressGovernor noEgress(PipelineMetrics metrics) {
    return new EgressGovernor(
        EgressConfig.none(), Clock.systemUTC(), Ticker.SYSTEM, metrics.egress(), Map.of());
  }

  /** The system clock and ticker, seeded jitter, daemon threads. */
  static PipelineEnvironment environment() {
    return new PipelineEnvironment(
        Clock.systemUTC(), Ticker.SYSTEM, new Random(1), new NamedThreadFactory("test"));
  }

  /** A real entry of {@code source} whose checkpoint is {@code key} = {@code seq}. */
  static LogEntry keyed(String source, String key, int seq) {
    return LogEntry.of(
        T0 + seq,
        Map.of("job", "sf2loki", "source", source, "event_type", "Login"),
        key + "#" + seq,
        Map.of(),
        Optional.of(new CheckpointToken(key, Integer.toString(seq))));
  }

  static LogEntry marker(String key, int seq) {
    return LogEntry.checkpointOnly(new CheckpointToken(key, Integer.toString(seq)));
  }

  /** A run on a background thread with its stop trigger. */
  record Running(CompletableFuture<PipelineOutcome> outcome, StopTrigger stop) {}

  static Running start(Pipeline pipeline) {
    StopTrigger stop = new StopTrigger();
    CompletableFuture<PipelineOutcome> f =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return pipeline.run(stop);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    return new Running(f, stop);
  }
}
