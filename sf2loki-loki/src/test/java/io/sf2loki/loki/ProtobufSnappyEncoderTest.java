package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.loki4j.pkg.google.protobuf.Timestamp;
import com.github.loki4j.pkg.loki.protobuf.Push;
import io.sf2loki.bench.BenchEntries;
import io.sf2loki.model.LogEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

class ProtobufSnappyEncoderTest {

  private final ProtobufSnappyEncoder encoder = new ProtobufSnappyEncoder();

  @Test
  void bodyIsTheGeneratedPushRequestSerialisationForEdgeCases() throws Exception {
    List<LogEntry> entries = new ArrayList<>();
    entries.add(LogEntry.of(0, Map.of("a", "1"), "", Map.of(), Optional.empty()));
    entries.add(LogEntry.of(1_000_000_000L, Map.of("a", "1"), "x", Map.of(), Optional.empty()));
    entries.add(LogEntry.of(7, Map.of("a", "1"), "Zürich ✓ 😀", Map.of("k", ""), Optional.empty()));
    entries.add(
        LogEntry.of(
            1_795_952_304_580_558_227L,
            Map.of("job", "x\"y", "source", "s"),
            "l".repeat(300),
            Map.of("b", "2", "a", "é".repeat(200)),
            Optional.empty()));
    entries.add(LogEntry.of(5, Map.of(), "no labels", Map.of("", "v"), Optional.empty()));

    assertEncodesLikeGenerated(entries);
  }

  @Test
  void bodyIsTheGeneratedPushRequestSerialisationForABenchmarkBatch() throws Exception {
    assertEncodesLikeGenerated(new BenchEntries().entries(200));
  }

  private void assertEncodesLikeGenerated(List<LogEntry> entries) throws Exception {
    List<LokiStream> streams = LokiStream.group(entries);

    EncodedBody body = encoder.encode(streams);

    assertThat(Snappy.uncompress(body.bytes())).isEqualTo(generated(streams).toByteArray());
    assertThat(body.contentEncoding()).contains("snappy");
  }

  private static Push.PushRequest generated(List<LokiStream> streams) {
    Push.PushRequest.Builder request = Push.PushRequest.newBuilder();
    for (LokiStream stream : streams) {
      Push.StreamAdapter.Builder s =
          Push.StreamAdapter.newBuilder().setLabels(LokiStream.selector(stream.labels()));
      for (LogEntry e : stream.entries()) {
        long nanos = e.timestampNanos();
        Push.EntryAdapter.Builder b =
            Push.EntryAdapter.newBuilder()
                .setTimestamp(
                    Timestamp.newBuilder()
                        .setSeconds(nanos / 1_000_000_000L)
                        .setNanos((int) (nanos % 1_000_000_000L)))
                .setLine(e.line());
        e.metadata()
            .forEach(
                (k, v) ->
                    b.addStructuredMetadata(
                        Push.LabelPairAdapter.newBuilder().setName(k).setValue(v)));
        s.addEntries(b);
      }
      request.addStreams(s);
    }
    return request.build();
  }
}
