package io.sf2loki.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.loki.LokiConfigs;
import io.sf2loki.loki.LokiSink;
import io.sf2loki.pipeline.FakeCheckpointStore;
import io.sf2loki.pipeline.FakeTerm;
import io.sf2loki.pipeline.Pipeline;
import io.sf2loki.pipeline.PipelineEnvironment;
import io.sf2loki.pipeline.PipelineOutcome;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * End-to-end throughput: in-memory sources of 1 KiB lines ({@link BenchEntries}) through the real
 * {@link Pipeline} and {@link LokiSink} (protobuf+snappy by default) to a receiver on loopback,
 * with the peak heap. Not a test; run with {@code just bench-e2e [key=value ...]}:
 *
 * <ul>
 *   <li>{@code entries=1000000} entries in total, split evenly over the sources
 *   <li>{@code receiver=fake-process} {@code fake} | {@code fake-process} (the fake Loki in a child
 *       JVM, so its stored entries are not on our heap) | {@code decode} | {@code null}
 *   <li>{@code lanes=1} 1 = one bulk source; 2 = a bulk and a streaming source
 *   <li>{@code queue_maxsize=10000}, {@code queue_max_bytes=268435456}, {@code max_entries=1000},
 *       {@code max_bytes=1048576} the {@code sink.loki.batch} knobs
 *   <li>{@code encoding=protobuf} or {@code json} / {@code json-gzip}
 *   <li>{@code unique_lines=false} true gives every entry its own line copy (heap experiments)
 *   <li>{@code warmup_rounds=3} the warm-up entries go through this many pipelines, one after
 *       another
 *   <li>{@code warmup=600000} entries pushed first through a separate pipeline (JIT warm-up: the
 *       per-push code, a thousand calls a run, is still being compiled after 200,000)
 * </ul>
 *
 * Prints one result line per run: entries/s, process CPU, CPU per thread group (JIT and GC threads
 * included), peak heap in use and the largest post-GC heap, and the bound {@code lanes ×
 * queue_max_bytes + 64 MiB}; with a child-JVM receiver, a second line with its CPU per thread.
 */
public final class EndToEndBenchmark {

  /** The first warm-up entry index: 10^8 µs = 100 s before {@link BenchEntries#T0}. */
  private static final long WARMUP_FIRST = -100_000_000L;

  private EndToEndBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = new HashMap<>();
    for (String a : args) {
      String[] kv = a.split("=", 2);
      o.put(kv[0], kv.length > 1 ? kv[1] : "true");
    }
    long entries = Long.parseLong(o.getOrDefault("entries", "1000000"));
    long warmup = Long.parseLong(o.getOrDefault("warmup", "600000"));
    int lanes = Integer.parseInt(o.getOrDefault("lanes", "1"));
    boolean fresh = Boolean.parseBoolean(o.getOrDefault("unique_lines", "false"));
    LaneConfig batch =
        LaneConfig.defaults()
            .withBatch(
                Integer.parseInt(o.getOrDefault("max_entries", "1000")),
                Long.parseLong(o.getOrDefault("max_bytes", "1048576")),
                Duration.ofSeconds(1),
                Integer.parseInt(o.getOrDefault("queue_maxsize", "10000")),
                Long.parseLong(o.getOrDefault("queue_max_bytes", "268435456")));
    try (BenchReceiver receiver = BenchReceiver.start(o.getOrDefault("receiver", "fake-process"))) {
      LokiConfigs config = LokiConfigs.to(receiver.baseUri());
      String encoding = o.getOrDefault("encoding", "protobuf");
      if (encoding.startsWith("json")) {
        config.json(encoding.endsWith("gzip"));
      }
      try (LokiSink sink =
          LokiSink.builder(config.build(), new SimpleMeterRegistry(), Clock.systemUTC()).build()) {
        if (warmup > 0) {
          // Entry i is stamped T0 + i µs (T0 = a minute ago): the warm-up entries sit 100 s before
          // T0, so each stream's timestamps rise from the warm-up into the run as a real source's
          // do, and are well inside Loki's age limits. (At 10^9 they were 16 min in the future:
          // the fake Loki rejected every one and the sink bisected each batch down to 1-entry
          // pushes, so the warm-up never warmed the real path and flooded the fake.)
          // In rounds, each a fresh pipeline as the measured run is: the end of one pipeline and
          // the start of the next take paths (end of lane, new threads) that deoptimise code
          // compiled while entries flowed, and its recompilation belongs in the warm-up too.
          int rounds = Integer.parseInt(o.getOrDefault("warmup_rounds", "3"));
          for (int r = 0; r < rounds; r++) {
            run(sink, batch, lanes, WARMUP_FIRST + r * (warmup / rounds), warmup / rounds, fresh);
          }
          System.gc();
        }
        long firstAccepted = receiver.entries();
        Duration childCpuBefore = receiver.childCpu();
        Map<Long, ProcThreadCpu.ThreadCpu> childThreadsBefore =
            ProcThreadCpu.threads(receiver.childPid());
        List<Source> sources = sources(lanes, 0, entries, fresh); // line pools built untimed
        RunMonitor monitor = new RunMonitor();
        long start = System.nanoTime();
        PipelineOutcome outcome = run(sink, batch, sources);
        double secs = (System.nanoTime() - start) / 1e9;
        monitor.close();
        String childThreads =
            ProcThreadCpu.format(
                ProcThreadCpu.byGroup(
                    ProcThreadCpu.delta(
                        childThreadsBefore, ProcThreadCpu.threads(receiver.childPid()))),
                0.05);
        report(o, entries, secs, outcome, monitor, receiver, firstAccepted, childCpuBefore, batch);
        if (!childThreads.isEmpty()) {
          System.out.println("RECEIVER cpu by thread (user+system s):" + childThreads);
        }
      }
    }
  }

  private static PipelineOutcome run(
      LokiSink sink, LaneConfig batch, int lanes, long first, long entries, boolean fresh)
      throws InterruptedException {
    return run(sink, batch, sources(lanes, first, entries, fresh));
  }

  /** The sources of a run; each builds its pool of lines when constructed. */
  private static List<Source> sources(int lanes, long first, long entries, boolean fresh) {
    List<Source> sources = new ArrayList<>();
    long perSource = entries / lanes;
    sources.add(new BenchSource("bench-bulk", Source.Lane.BULK, first, perSource, fresh));
    if (lanes > 1) {
      sources.add(
          new BenchSource(
              "bench-streaming",
              Source.Lane.STREAMING,
              first + perSource,
              entries - perSource,
              fresh));
    }
    return sources;
  }

  private static PipelineOutcome run(LokiSink sink, LaneConfig batch, List<Source> sources)
      throws InterruptedException {
    Pipeline p =
        Pipeline.builder(
                sources,
                sink,
                new FakeCheckpointStore(),
                new FakeTerm(1),
                new PipelineEnvironment(
                    Clock.systemUTC(),
                    Ticker.SYSTEM,
                    new Random(),
                    new NamedThreadFactory("bench")))
            .lanes(batch)
            .build();
    return p.run(new StopTrigger());
  }

  private static void report(
      Map<String, String> o,
      long entries,
      double secs,
      PipelineOutcome outcome,
      RunMonitor m,
      BenchReceiver receiver,
      long firstAccepted,
      Duration childCpuBefore,
      LaneConfig batch)
      throws Exception {
    long accepted = receiver.entries();
    double childCpu = (receiver.childCpu().toMillis() - childCpuBefore.toMillis()) / 1e3;
    int lanes = Integer.parseInt(o.getOrDefault("lanes", "1"));
    long boundMiB = (lanes * batch.queueMaxBytes() >> 20) + 64;
    String cpu = ProcThreadCpu.format(m.cpuByGroup(), 0.05);
    System.out.printf(
        Locale.ROOT,
        "RESULT %s receiver=%s lanes=%d encoding=%s: %d entries in %.2f s = %.0f entries/s;"
            + " receiver stored %s; process CPU %.1f s (%.0f%% of one core)%s; peak heap used"
            + " %d MiB, largest post-GC %d MiB, -Xmx %d MiB, bound (lanes x queue_max_bytes +"
            + " 64 MiB) %d MiB; cpu by thread (user+system s):%s%n",
        outcome,
        o.getOrDefault("receiver", "fake-process"),
        lanes,
        o.getOrDefault("encoding", "protobuf"),
        entries,
        secs,
        entries / secs,
        accepted < 0 ? "n/a" : Long.toString(accepted - Math.max(0, firstAccepted)),
        m.processCpuSeconds(),
        100 * m.processCpuSeconds() / secs,
        childCpu > 0 ? String.format(Locale.ROOT, ", receiver child CPU %.1f s", childCpu) : "",
        m.peakUsed() >> 20,
        m.peakAfterGc() >> 20,
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax() >> 20,
        boundMiB,
        cpu);
  }
}
