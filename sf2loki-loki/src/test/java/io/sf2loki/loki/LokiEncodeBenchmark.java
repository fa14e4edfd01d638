package io.sf2loki.loki;

import com.github.loki4j.client.batch.LogRecord;
import com.github.loki4j.client.batch.LogRecordBatch;
import com.github.loki4j.client.util.ByteBufferFactory;
import com.github.loki4j.client.writer.JsonWriter;
import com.github.loki4j.client.writer.ProtobufWriter;
import com.github.loki4j.pkg.google.protobuf.Timestamp;
import com.github.loki4j.pkg.loki.protobuf.Push;
import io.sf2loki.bench.BenchEntries;
import io.sf2loki.model.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.xerial.snappy.Snappy;

/**
 * Encode CPU of one push body of {@value #ENTRIES} realistic 1 KiB entries (≈ one default 1 MiB
 * batch, {@link BenchEntries}): our encoders as {@link LokiSink} calls them (grouping included),
 * against the floor (serialising an already-built {@code PushRequest} of the same entries plus
 * {@code Snappy.compress} of the same bytes; gzip of the same JSON bytes) and against loki4j
 * 2.1.0's writers driven directly (records sorted by stream as its pipeline does, then serialised,
 * compressed and copied out). Single-threaded, so time per op is CPU per op.
 *
 * <p>Run: {@code just bench} (all of this class) — see docs/performance.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 6, time = 2)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xmx1g", "-Xms1g"})
public class LokiEncodeBenchmark {

  /** Entries per body: 1 MiB of lines at 1 KiB + 64 accounted bytes each (loki-push.md §8). */
  public static final int ENTRIES = 960;

  private final ProtobufSnappyEncoder protobuf = new ProtobufSnappyEncoder();
  private final JsonEncoder jsonGzip = new JsonEncoder(true);
  private final JsonEncoder json = new JsonEncoder(false);
  private List<LogEntry> entries;
  private Push.PushRequest built;
  private byte[] jsonBytes;
  private LogRecord[] records;
  private ProtobufWriter loki4jProtobuf;
  private JsonWriter loki4jJson;

  /** Builds the entries and every comparison's input once. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    entries = new BenchEntries().entries(ENTRIES);
    built = request(LokiStream.group(entries));
    jsonBytes = json.encode(LokiStream.group(entries)).bytes();
    records = entries.stream().map(LokiEncodeBenchmark::record).toArray(LogRecord[]::new);
    int capacity = 4 << 20;
    loki4jProtobuf = new ProtobufWriter(capacity, new ByteBufferFactory(false));
    loki4jJson = new JsonWriter(capacity);
    long lineBytes = entries.stream().mapToLong(e -> e.line().length()).sum();
    System.out.printf(
        "%n[body] %d entries, %d line bytes, protobuf %d B, snappy %d B, json %d B, json+gzip %d B%n",
        ENTRIES,
        lineBytes,
        built.getSerializedSize(),
        protobufSnappy().length,
        jsonBytes.length,
        jsonGzip().length);
  }

  /** Ours: group, build, serialise, snappy (block format). */
  @Benchmark
  public byte[] protobufSnappy() throws IOException {
    return protobuf.encode(LokiStream.group(entries)).bytes();
  }

  /** Ours: group and write JSON through gzip. */
  @Benchmark
  public byte[] jsonGzip() throws IOException {
    return jsonGzip.encode(LokiStream.group(entries)).bytes();
  }

  /** Ours: group and write JSON, uncompressed (what loki4j sends by default). */
  @Benchmark
  public byte[] jsonPlain() throws IOException {
    return json.encode(LokiStream.group(entries)).bytes();
  }

  /** Floor: serialise the already-built request, then snappy of those bytes. */
  @Benchmark
  public byte[] floorProtobufSnappy() throws IOException {
    return Snappy.compress(built.toByteArray());
  }

  /** Floor for JSON+gzip: gzip (default level) of the same JSON bytes. */
  @Benchmark
  public byte[] floorGzip() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(jsonBytes.length / 4);
    try (GZIPOutputStream gz = new GZIPOutputStream(out, 8192)) {
      gz.write(jsonBytes);
    }
    return out.toByteArray();
  }

  /** loki4j: sort by stream, build, serialise into its buffer, snappy, copy out. */
  @Benchmark
  public byte[] loki4jProtobufSnappy() {
    loki4jProtobuf.reset();
    loki4jProtobuf.serializeBatch(sortedBatch());
    return loki4jProtobuf.toByteArray();
  }

  /** loki4j: sort by stream, write JSON (loki4j does not compress JSON), copy out. */
  @Benchmark
  public byte[] loki4jJson() {
    loki4jJson.reset();
    loki4jJson.serializeBatch(sortedBatch());
    return loki4jJson.toByteArray();
  }

  private LogRecordBatch sortedBatch() {
    LogRecordBatch batch = new LogRecordBatch(Arrays.copyOf(records, records.length));
    batch.sort(Comparator.comparingInt(r -> r.stream.hashCode())); // loki4j's compareByStream
    return batch;
  }

  private static LogRecord record(LogEntry e) {
    long ms = Math.floorDiv(e.timestampNanos(), 1_000_000L);
    int nanosInMs = (int) Math.floorMod(e.timestampNanos(), 1_000_000L);
    return LogRecord.create(ms, nanosInMs, e.labels(), e.line(), e.metadata());
  }

  private static Push.PushRequest request(List<LokiStream> streams) {
    Push.PushRequest.Builder request = Push.PushRequest.newBuilder();
    for (LokiStream stream : streams) {
      Push.StreamAdapter.Builder s =
          Push.StreamAdapter.newBuilder().setLabels(LokiStream.selector(stream.labels()));
      for (LogEntry e : stream.entries()) {
        Push.EntryAdapter.Builder b =
            Push.EntryAdapter.newBuilder()
                .setTimestamp(
                    Timestamp.newBuilder()
                        .setSeconds(Math.floorDiv(e.timestampNanos(), 1_000_000_000L))
                        .setNanos((int) Math.floorMod(e.timestampNanos(), 1_000_000_000L)))
                .setLine(e.line());
        for (Map.Entry<String, String> m : e.metadata().entrySet()) {
          b.addStructuredMetadata(
              Push.LabelPairAdapter.newBuilder().setName(m.getKey()).setValue(m.getValue()));
        }
        s.addEntries(b);
      }
      request.addStreams(s);
    }
    return request.build();
  }
}
