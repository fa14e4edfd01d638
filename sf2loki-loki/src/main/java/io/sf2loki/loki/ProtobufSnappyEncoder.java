package io.sf2loki.loki;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.xerial.snappy.Snappy;

/**
 * Loki's {@code logproto.PushRequest}, compressed with snappy's raw <em>block</em> format (the
 * framed stream format is rejected by Loki). Structured metadata pairs are sorted by name; the
 * query-side {@code parsed} field is never set.
 *
 * <p>The message is written field by field straight into one exactly-sized array (sizes first, then
 * bytes) instead of through generated builders: no per-entry builder or message objects, and each
 * line is UTF-8 encoded once by the JDK's intrinsic and copied once. The bytes equal what the
 * generated {@code PushRequest} serialises to (same fields, order and proto3 default omission).
 */
final class ProtobufSnappyEncoder implements LokiEncoder {

  // Field numbers of Loki's push.proto (loki-push.md §2.1).
  private static final int REQUEST_STREAMS = 1;
  private static final int STREAM_LABELS = 1;
  private static final int STREAM_ENTRIES = 2;
  private static final int ENTRY_TIMESTAMP = 1;
  private static final int ENTRY_LINE = 2;
  private static final int ENTRY_METADATA = 3;
  private static final int PAIR_NAME = 1;
  private static final int PAIR_VALUE = 2;
  private static final int TS_SECONDS = 1;
  private static final int TS_NANOS = 2;

  private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

  @Override
  public EncodedBody encode(List<LokiStream> streams) throws IOException {
    Sized[] sized = new Sized[streams.size()];
    int total = 0;
    for (int i = 0; i < sized.length; i++) {
      sized[i] = new Sized(streams.get(i));
      total += delimited(REQUEST_STREAMS, sized[i].size);
    }
    Scratch scratch = this.scratch.get();
    byte[] raw = scratch.raw(total);
    CodedOutputStream out = CodedOutputStream.newInstance(raw, 0, total);
    for (Sized s : sized) {
      s.writeTo(out);
    }
    out.checkNoSpaceLeft();
    byte[] compressed = scratch.compressed(Snappy.maxCompressedLength(total));
    int length = Snappy.compress(raw, 0, total, compressed, 0);
    return new EncodedBody(
        Arrays.copyOf(compressed, length), "application/x-protobuf", Optional.of("snappy"));
  }

  /**
   * Per-thread buffers for the uncompressed message and the snappy output, reused across pushes: a
   * 1 MiB batch otherwise allocates two arrays above G1's humongous threshold per push, and each
   * such allocation can start a collection. Grown on demand, never shrunk; each lane thread keeps
   * about twice its largest body (counted in the {@code 64 MiB} of the heap bound).
   */
  private static final class Scratch {
    private byte[] raw = new byte[0];
    private byte[] compressed = new byte[0];

    byte[] raw(int size) {
      if (raw.length < size) {
        raw = new byte[size];
      }
      return raw;
    }

    byte[] compressed(int size) {
      if (compressed.length < size) {
        compressed = new byte[size];
      }
      return compressed;
    }
  }

  /** A stream with its encoded strings and the sizes of every nested message, computed once. */
  private static final class Sized {
    final byte[] labels;
    final List<LogEntry> entries;
    final byte[][] lines;
    final int[] entrySizes;
    final int[] timestampSizes;
    final int[] pairSizes; // every structured-metadata pair of every entry, in write order
    final byte[][] pairStrings; // each pair's name then value, UTF-8, in write order
    final int size;

    Sized(LokiStream stream) {
      labels = utf8(LokiStream.selector(stream.labels()));
      entries = stream.entries();
      int n = entries.size();
      lines = new byte[n][];
      entrySizes = new int[n];
      timestampSizes = new int[n];
      int pairs = 0;
      for (int i = 0; i < n; i++) {
        pairs += entries.get(i).metadata().size();
      }
      pairSizes = new int[pairs];
      // Encoded once, like the lines: sizing them through protobuf's char-by-char UTF-8 length and
      // writing them through its char-by-char encoder was nearly half the batching thread's time at
      // one subscription's ceiling (docs/performance.md §4, seventh round).
      pairStrings = new byte[2 * pairs][];
      int pair = 0;
      int total = bytesField(STREAM_LABELS, labels);
      for (int i = 0; i < n; i++) {
        LogEntry e = entries.get(i);
        lines[i] = utf8(e.line());
        timestampSizes[i] = timestampSize(e.timestampNanos());
        int metadata = 0;
        StringMap sm = e.metadata();
        for (int m = 0; m < sm.size(); m++, pair++) {
          byte[] name = utf8(sm.keyAt(m));
          byte[] value = utf8(sm.valueAt(m));
          pairStrings[2 * pair] = name;
          pairStrings[2 * pair + 1] = value;
          pairSizes[pair] = bytesField(PAIR_NAME, name) + bytesField(PAIR_VALUE, value);
          metadata += delimited(ENTRY_METADATA, pairSizes[pair]);
        }
        entrySizes[i] =
            delimited(ENTRY_TIMESTAMP, timestampSizes[i])
                + bytesField(ENTRY_LINE, lines[i])
                + metadata;
        total += delimited(STREAM_ENTRIES, entrySizes[i]);
      }
      size = total;
    }

    void writeTo(CodedOutputStream out) throws IOException {
      header(out, REQUEST_STREAMS, size);
      writeBytes(out, STREAM_LABELS, labels);
      int pair = 0;
      for (int i = 0; i < lines.length; i++) {
        LogEntry e = entries.get(i);
        header(out, STREAM_ENTRIES, entrySizes[i]);
        header(out, ENTRY_TIMESTAMP, timestampSizes[i]);
        long nanos = e.timestampNanos();
        long seconds = Math.floorDiv(nanos, 1_000_000_000L);
        int fraction = (int) Math.floorMod(nanos, 1_000_000_000L);
        if (seconds != 0) {
          out.writeInt64(TS_SECONDS, seconds);
        }
        if (fraction != 0) {
          out.writeInt32(TS_NANOS, fraction);
        }
        writeBytes(out, ENTRY_LINE, lines[i]);
        int pairs = e.metadata().size(); // sorted by name
        for (int m = 0; m < pairs; m++, pair++) {
          header(out, ENTRY_METADATA, pairSizes[pair]);
          writeBytes(out, PAIR_NAME, pairStrings[2 * pair]);
          writeBytes(out, PAIR_VALUE, pairStrings[2 * pair + 1]);
        }
      }
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8); // a plain copy for Latin-1-only ASCII strings
  }

  private static int timestampSize(long nanos) {
    long seconds = Math.floorDiv(nanos, 1_000_000_000L);
    int fraction = (int) Math.floorMod(nanos, 1_000_000_000L);
    return (seconds == 0 ? 0 : CodedOutputStream.computeInt64Size(TS_SECONDS, seconds))
        + (fraction == 0 ? 0 : CodedOutputStream.computeInt32Size(TS_NANOS, fraction));
  }

  /** Size of a length-delimited field whose payload is {@code length} bytes. */
  private static int delimited(int field, int length) {
    return CodedOutputStream.computeTagSize(field)
        + CodedOutputStream.computeUInt32SizeNoTag(length)
        + length;
  }

  /** Size of a proto3 string/bytes field: omitted when empty. */
  private static int bytesField(int field, byte[] value) {
    return value.length == 0 ? 0 : delimited(field, value.length);
  }

  private static void header(CodedOutputStream out, int field, int length) throws IOException {
    out.writeTag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(length);
  }

  private static void writeBytes(CodedOutputStream out, int field, byte[] value)
      throws IOException {
    if (value.length > 0) {
      header(out, field, value.length);
      out.writeRawBytes(value);
    }
  }
}
