package io.sf2loki.loki;

import com.github.loki4j.pkg.google.protobuf.Timestamp;
import com.github.loki4j.pkg.loki.protobuf.Push;
import io.sf2loki.model.LogEntry;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.xerial.snappy.Snappy;

/**
 * Loki's {@code logproto.PushRequest}, compressed with snappy's raw <em>block</em> format (the
 * framed stream format is rejected by Loki). Structured metadata pairs are sorted by name; the
 * query-side {@code parsed} field is never set.
 */
final class ProtobufSnappyEncoder implements LokiEncoder {

  @Override
  public EncodedBody encode(List<LokiStream> streams) throws IOException {
    Push.PushRequest.Builder request = Push.PushRequest.newBuilder();
    for (LokiStream stream : streams) {
      Push.StreamAdapter.Builder s =
          Push.StreamAdapter.newBuilder().setLabels(LokiStream.selector(stream.labels()));
      for (LogEntry e : stream.entries()) {
        s.addEntries(entry(e));
      }
      request.addStreams(s);
    }
    byte[] compressed = Snappy.compress(request.build().toByteArray());
    return new EncodedBody(compressed, "application/x-protobuf", Optional.of("snappy"));
  }

  private static Push.EntryAdapter.Builder entry(LogEntry e) {
    long nanos = e.timestampNanos();
    Push.EntryAdapter.Builder b =
        Push.EntryAdapter.newBuilder()
            .setTimestamp(
                Timestamp.newBuilder()
                    .setSeconds(Math.floorDiv(nanos, 1_000_000_000L))
                    .setNanos((int) Math.floorMod(nanos, 1_000_000_000L)))
            .setLine(e.line());
    for (Map.Entry<String, String> m : e.metadata().entrySet()) { // sorted by name
      b.addStructuredMetadata(
          Push.LabelPairAdapter.newBuilder().setName(m.getKey()).setValue(m.getValue()));
    }
    return b;
  }
}
