package io.sf2loki.pipeline;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.loki.LokiConfigs;
import io.sf2loki.loki.LokiSink;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.Source.Lane;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.testkit.loki.FakeLoki;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * End-to-end throughput probe (not a timed unit test; excluded from the default run by its tag): an
 * in-memory source with 1 KiB lines through the pipeline and LokiSink to the fake Loki over
 * loopback. Run with {@code main} on the test class path.
 */
@Tag("benchmark")
class PipelineThroughputBenchmark {

  @Test
  void measure() throws Exception {
    main(new String[] {"100000"});
  }

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    String line = "x".repeat(1000);
    long t0 = Runs.T0;
    try (FakeLoki loki = FakeLoki.start();
        LokiSink sink =
            LokiSink.builder(
                    LokiConfigs.to(loki.baseUri()).build(),
                    new SimpleMeterRegistry(),
                    Clock.systemUTC())
                .build()) {
      ScriptedSource source =
          new ScriptedSource(
              "bench",
              Lane.BULK,
              n,
              i ->
                  LogEntry.of(
                      t0 + i,
                      Map.of("job", "sf2loki", "source", "eventlogfile", "event_type", "Login"),
                      line + i,
                      Map.of("level", "info"),
                      Optional.of(new CheckpointToken("bench", Integer.toString(i)))),
              false);
      Pipeline p =
          Pipeline.builder(
                  List.of(source),
                  sink,
                  new FakeCheckpointStore(),
                  new FakeTerm(1),
                  Runs.environment())
              .lanes(
                  LaneConfig.defaults()
                      .withBatch(1000, 1_048_576, Duration.ofSeconds(1), 10_000, 268_435_456))
              .build();
      long start = System.nanoTime();
      PipelineOutcome outcome = p.run(new StopTrigger());
      double secs = (System.nanoTime() - start) / 1e9;
      Runtime rt = Runtime.getRuntime();
      System.out.printf(
          "%s: %d entries in %.2f s = %.0f entries/s; Loki stored %d; heap used %d MiB%n",
          outcome,
          n,
          secs,
          n / secs,
          loki.stats().entries(),
          (rt.totalMemory() - rt.freeMemory()) >> 20);
    }
  }
}
