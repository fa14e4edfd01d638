package io.sf2loki.otlp;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.sf2loki.bench.BenchEntries;
import io.sf2loki.model.LogEntry;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encode CPU of one export body of {@value #ENTRIES} realistic 1 KiB entries, the records of
 * sf2loki-loki's {@code LokiEncodeBenchmark} (≈ one default 1 MiB batch): our encoder as {@link
 * OtlpSink} calls it (resource grouping, mapping, building, serialising, gzip) against the floor
 * (serialising an already-built {@code ExportLogsServiceRequest} of the same records with the
 * official classes, then gzip of those bytes). Single-threaded, so time per op is CPU per op.
 *
 * <p>Run: see docs/performance.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 6, time = 2)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xmx1g", "-Xms1g"})
public class OtlpEncodeBenchmark {

  /** Entries per body, as LokiEncodeBenchmark's. */
  public static final int ENTRIES = 960;

  private static final long OBSERVED = 1_796_000_000_000_000_000L;

  private final LogRecordMapping mapping =
      new LogRecordMapping("salesforce", Optional.of("acme"), Optional.empty());

  /** The gzip level of all three (the sink's {@code compression_level}). */
  @Param({"1", "6"})
  public int level = 1;

  private OtlpEncoder protobufGzip;
  private OtlpEncoder jsonGzip;
  private List<LogEntry> entries;
  private ExportLogsServiceRequest built;

  /** Builds the entries and the floor's request once. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    protobufGzip =
        new OtlpEncoder(
            mapping,
            OtlpSinkConfig.Encoding.PROTOBUF,
            OtlpSinkConfig.Compression.GZIP,
            level,
            "bench");
    jsonGzip =
        new OtlpEncoder(
            mapping, OtlpSinkConfig.Encoding.JSON, OtlpSinkConfig.Compression.GZIP, level, "bench");
    entries = new BenchEntries().entries(ENTRIES);
    built = protobufGzip.request(entries, OBSERVED);
    long lineBytes = entries.stream().mapToLong(e -> e.line().length()).sum();
    System.out.printf(
        "%n[body] %d entries, %d line bytes, protobuf %d B, protobuf+gzip-%d %d B, json+gzip %d B%n",
        ENTRIES,
        lineBytes,
        built.getSerializedSize(),
        level,
        protobufGzip().length,
        jsonGzip().length);
  }

  /** Ours: group by resource, map, build, serialise through gzip. */
  @Benchmark
  public byte[] protobufGzip() throws IOException {
    return protobufGzip.encode(entries, OBSERVED).bytes();
  }

  /** Ours: the OTLP/HTTP JSON mapping through gzip. */
  @Benchmark
  public byte[] jsonGzip() throws IOException {
    return jsonGzip.encode(entries, OBSERVED).bytes();
  }

  /**
   * Floor: serialise the already-built request with the official classes into one array, then gzip
   * it at the same level in one deflate pass.
   */
  @Benchmark
  public byte[] floorProtobufGzip() {
    return Gzip.compress(built.toByteArray(), level);
  }
}
