package io.sf2loki.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.loki.LokiConfigs;
import io.sf2loki.loki.LokiSink;
import io.sf2loki.otlp.OtlpConfigs;
import io.sf2loki.otlp.OtlpSink;
import io.sf2loki.otlp.OtlpSinkConfig;
import io.sf2loki.pipeline.FakeCheckpointStore;
import io.sf2loki.pipeline.FakeTerm;
import io.sf2loki.pipeline.Pipeline;
import io.sf2loki.pipeline.PipelineEnvironment;
import io.sf2loki.pipeline.PipelineOutcome;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * End-to-end throughput of the OTLP sink next to the Loki sink's, in one JVM and one run: the same
 * in-memory source of 1 KiB lines ({@link BenchSource}, {@link BenchEntries}) through the real
 * {@link Pipeline} into {@link OtlpSink} (protobuf+gzip) and into {@link LokiSink}
 * (protobuf+snappy), each to a lean loopback receiver that stores nothing, in alternating rounds so
 * that the machine's load falls on both alike. Not a test; run with {@code just bench-e2e-otlp
 * [key=value ...]}:
 *
 * <ul>
 *   <li>{@code entries=1000000} entries per measured run
 *   <li>{@code rounds=3} measured runs of each sink, alternating (Loki first)
 *   <li>{@code receiver=null} {@code null} reads the body; {@code decode} also decompresses and
 *       parses it (the Loki side with the testkit's push decoder), counting what arrived
 *   <li>{@code compression=gzip}: the OTLP sink's {@code sink.otlp.compression} ({@code gzip},
 *       {@code zstd}, {@code lz4} or {@code none}), or several, comma-separated ({@code
 *       zstd,lz4,gzip}): one OTLP sink each, measured in turn after the Loki sink in every round;
 *       {@code compression_level=1}: its {@code compression_level} (gzip and zstd)
 *   <li>{@code warmup=600000} entries pushed first through each sink, in {@code warmup_rounds=3}
 *       pipelines, as {@code just bench-e2e} does
 * </ul>
 *
 * Prints a RESULT line per run and a SUMMARY line per OTLP compression: each sink's median
 * entries/s and OTLP / Loki.
 */
public final class OtlpEndToEndBenchmark {

  /** The first warm-up entry index: 100 s before {@link BenchEntries#T0}, as bench-e2e does. */
  private static final long WARMUP_FIRST = -100_000_000L;

  private OtlpEndToEndBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = new HashMap<>();
    for (String a : args) {
      String[] kv = a.split("=", 2);
      o.put(kv[0], kv.length > 1 ? kv[1] : "true");
    }
    long entries = Long.parseLong(o.getOrDefault("entries", "1000000"));
    long warmup = Long.parseLong(o.getOrDefault("warmup", "600000"));
    int warmupRounds = Integer.parseInt(o.getOrDefault("warmup_rounds", "3"));
    int rounds = Integer.parseInt(o.getOrDefault("rounds", "3"));
    String receiverKind = o.getOrDefault("receiver", "null");
    List<OtlpSinkConfig.Compression> codecs = new ArrayList<>();
    for (String c : o.getOrDefault("compression", "gzip").split(",")) {
      codecs.add(OtlpSinkConfig.Compression.valueOf(c.strip().toUpperCase(Locale.ROOT)));
    }
    int level = Integer.parseInt(o.getOrDefault("compression_level", "1"));
    // bench-e2e's default sink.loki.batch (the lanes' batching is the same for both sinks)
    LaneConfig batch =
        LaneConfig.defaults().withBatch(1000, 1048576, Duration.ofSeconds(1), 10000, 268435456);
    List<OtlpSink> otlps = new ArrayList<>();
    try (BenchReceiver lokiReceiver = BenchReceiver.start(receiverKind);
        OtlpReceiver otlpReceiver = new OtlpReceiver("decode".equals(receiverKind));
        LokiSink loki =
            LokiSink.builder(
                    LokiConfigs.to(lokiReceiver.baseUri()).build(),
                    new SimpleMeterRegistry(),
                    Clock.systemUTC())
                .build()) {
      for (OtlpSinkConfig.Compression c : codecs) {
        otlps.add(
            new OtlpSink(
                OtlpConfigs.to(otlpReceiver.baseUri())
                    .encoding(OtlpSinkConfig.Encoding.PROTOBUF, true)
                    .compression(c)
                    .gzipLevel(level)
                    .build(),
                new SimpleMeterRegistry(),
                Clock.systemUTC()));
      }
      for (int r = 0; r < warmupRounds && warmup > 0; r++) {
        long first = WARMUP_FIRST + r * (warmup / warmupRounds);
        run(loki, batch, first, warmup / warmupRounds);
        for (OtlpSink otlp : otlps) {
          run(otlp, batch, first, warmup / warmupRounds);
        }
      }
      System.gc();
      List<Double> lokiRates = new ArrayList<>();
      List<List<Double>> otlpRates = new ArrayList<>();
      codecs.forEach(c -> otlpRates.add(new ArrayList<>()));
      for (int r = 0; r < rounds; r++) {
        long first = r * entries; // each stream's timestamps keep rising, as a real source's do
        long lokiBefore = lokiReceiver.entries();
        lokiRates.add(measure("loki (protobuf+snappy)", loki, batch, first, entries));
        report("loki", lokiReceiver.entries() - lokiBefore);
        for (int i = 0; i < codecs.size(); i++) {
          long otlpBefore = otlpReceiver.records();
          otlpRates
              .get(i)
              .add(
                  measure(
                      "otlp (protobuf+" + name(codecs.get(i), level) + ")",
                      otlps.get(i),
                      batch,
                      first,
                      entries));
          report("otlp", otlpReceiver.records() - otlpBefore);
        }
      }
      double l = median(lokiRates);
      for (int i = 0; i < codecs.size(); i++) {
        double t = median(otlpRates.get(i));
        System.out.printf(
            Locale.ROOT,
            "SUMMARY receiver=%s entries=%d rounds=%d: loki median %.0f entries/s %s, otlp %s"
                + " median %.0f entries/s %s, otlp/loki %.2f%n",
            receiverKind,
            entries,
            rounds,
            l,
            rates(lokiRates),
            name(codecs.get(i), level),
            t,
            rates(otlpRates.get(i)),
            t / l);
      }
    } finally {
      otlps.forEach(OtlpSink::close);
    }
  }

  private static String name(OtlpSinkConfig.Compression c, int level) {
    return switch (c) {
      case GZIP, ZSTD -> c.configName() + "-" + level;
      default -> c.configName();
    };
  }

  private static double measure(String what, Sink sink, LaneConfig batch, long first, long n)
      throws InterruptedException {
    List<Source> sources =
        List.of(new BenchSource("bench-bulk", Source.Lane.BULK, first, n, false));
    RunMonitor monitor = new RunMonitor(); // the source's line pool is built before it, untimed
    long start = System.nanoTime();
    PipelineOutcome outcome = run(sink, batch, sources);
    double secs = (System.nanoTime() - start) / 1e9;
    monitor.close();
    System.out.printf(
        Locale.ROOT,
        "RESULT %s %s: %d entries in %.2f s = %.0f entries/s; process CPU %.1f s (%.0f%% of one"
            + " core); cpu by thread (user+system s):%s%n",
        what,
        outcome,
        n,
        secs,
        n / secs,
        monitor.processCpuSeconds(),
        100 * monitor.processCpuSeconds() / secs,
        ProcThreadCpu.format(monitor.cpuByGroup(), 0.05));
    return n / secs;
  }

  private static void report(String sink, long received) {
    if (received > 0) { // -1 - -1 = 0 with a receiver that does not decode
      System.out.println("  " + sink + " receiver decoded " + received + " entries");
    }
  }

  private static PipelineOutcome run(Sink sink, LaneConfig batch, long first, long n)
      throws InterruptedException {
    return run(
        sink, batch, List.of(new BenchSource("bench-bulk", Source.Lane.BULK, first, n, false)));
  }

  private static PipelineOutcome run(Sink sink, LaneConfig batch, List<Source> sources)
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

  private static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  private static String rates(List<Double> xs) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < xs.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", xs.get(i)));
    }
    return b.append(')').toString();
  }
}
