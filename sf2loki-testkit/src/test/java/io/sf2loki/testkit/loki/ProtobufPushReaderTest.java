package io.sf2loki.testkit.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.loki4j.pkg.google.protobuf.Timestamp;
import com.github.loki4j.pkg.loki.protobuf.Push;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The hand-written wire reader against the generated classes' own serialisation and parse. */
class ProtobufPushReaderTest {

  private static Push.EntryAdapter.Builder entry(long seconds, int nanos, String line) {
    return Push.EntryAdapter.newBuilder()
        .setTimestamp(Timestamp.newBuilder().setSeconds(seconds).setNanos(nanos))
        .setLine(line);
  }

  private static Push.LabelPairAdapter pair(String name, String value) {
    return Push.LabelPairAdapter.newBuilder().setName(name).setValue(value).build();
  }

  private static Push.PushRequest varied() {
    return Push.PushRequest.newBuilder()
        .addStreams(
            Push.StreamAdapter.newBuilder()
                .setLabels("{job=\"a\",source=\"x\"}")
                .setHash(42) // an unused field, skipped
                .addEntries(entry(1_700_000_000, 5, "plain").addStructuredMetadata(pair("z", "1")))
                .addEntries(
                    entry(1_700_000_001, 0, "ünï \"code\" ✓")
                        .addStructuredMetadata(pair("user_id", "005x"))
                        .addStructuredMetadata(pair("level", "warn"))
                        .addStructuredMetadata(pair("empty", ""))
                        .addParsed(pair("p", "ignored")))
                .addEntries(entry(0, 0, "")))
        .addStreams(
            Push.StreamAdapter.newBuilder()
                .setLabels("{job=\"b\"}")
                .addEntries(entry(1_700_000_002, 999_999_999, "x".repeat(5000))))
        .build();
  }

  /** What the generated parser makes of the same bytes, in the reader's terms. */
  private static List<DecodedStream> viaGenerated(byte[] bytes) throws Exception {
    List<DecodedStream> out = new ArrayList<>();
    for (Push.StreamAdapter s : Push.PushRequest.parseFrom(bytes).getStreamsList()) {
      List<DecodedEntry> entries = new ArrayList<>();
      for (Push.EntryAdapter e : s.getEntriesList()) {
        Map<String, String> sm = new TreeMap<>();
        e.getStructuredMetadataList().forEach(p -> sm.put(p.getName(), p.getValue()));
        long nanos = e.getTimestamp().getSeconds() * 1_000_000_000L + e.getTimestamp().getNanos();
        entries.add(new DecodedEntry(nanos, e.getLine(), sm));
      }
      out.add(new DecodedStream(LabelSelector.parse(s.getLabels()), entries));
    }
    return out;
  }

  private static List<DecodedStream> viaReader(byte[] bytes) throws Exception {
    List<DecodedStream> out = new ArrayList<>();
    for (ProtobufPushReader.RawStream s : new ProtobufPushReader(bytes).read()) {
      out.add(new DecodedStream(LabelSelector.parse(s.labels()), s.entries()));
    }
    return out;
  }

  @Test
  void readsWhatTheGeneratedClassesParse() throws Exception {
    byte[] bytes = varied().toByteArray();

    List<DecodedStream> read = viaReader(bytes);

    assertThat(read).isEqualTo(viaGenerated(bytes));
    assertThat(read.get(0).entries().get(1).line()).isEqualTo("ünï \"code\" ✓");
    assertThat(read.get(0).entries().get(1).metadata())
        .containsExactly(
            Map.entry("empty", ""), Map.entry("level", "warn"), Map.entry("user_id", "005x"));
    assertThat(read.get(1).entries().get(0).timestampNanos()).isEqualTo(1_700_000_002_999_999_999L);
  }

  @Test
  void skipsUnknownFieldsOfEveryWireType() throws Exception {
    UnknownFieldSet unknown =
        UnknownFieldSet.newBuilder()
            .addField(9, UnknownFieldSet.Field.newBuilder().addVarint(300).build())
            .addField(10, UnknownFieldSet.Field.newBuilder().addFixed64(7).build())
            .addField(11, UnknownFieldSet.Field.newBuilder().addFixed32(7).build())
            .addField(
                12,
                UnknownFieldSet.Field.newBuilder()
                    .addLengthDelimited(ByteString.copyFromUtf8("xyz"))
                    .build())
            .build();
    Push.PushRequest req =
        Push.PushRequest.newBuilder()
            .addStreams(
                Push.StreamAdapter.newBuilder()
                    .setLabels("{job=\"a\"}")
                    .addEntries(entry(1, 2, "line").setUnknownFields(unknown))
                    .setUnknownFields(unknown))
            .setUnknownFields(unknown)
            .build();

    assertThat(viaReader(req.toByteArray())).isEqualTo(viaGenerated(req.toByteArray()));
  }

  @Test
  void rejectsALineThatIsNotUtf8() {
    byte[] bytes = varied().toByteArray();
    int at = indexOf(bytes, "plain".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    bytes[at] = (byte) 0xC3; // a lead byte followed by ASCII
    assertThatThrownBy(() -> Push.PushRequest.parseFrom(bytes)).isNotNull();

    assertThatThrownBy(() -> new ProtobufPushReader(bytes).read())
        .isInstanceOf(ProtobufPushReader.MalformedException.class)
        .hasMessageContaining("UTF-8");
  }

  @Test
  void rejectsATruncatedBody() {
    byte[] bytes = varied().toByteArray();
    byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 3);

    assertThatThrownBy(() -> new ProtobufPushReader(cut).read())
        .isInstanceOf(ProtobufPushReader.MalformedException.class);
  }

  @Test
  void repeatedMetadataNameKeepsTheLastValueAndPairsSortByName() throws Exception {
    Push.PushRequest req =
        Push.PushRequest.newBuilder()
            .addStreams(
                Push.StreamAdapter.newBuilder()
                    .setLabels("{job=\"a\"}")
                    .addEntries(
                        entry(1, 0, "l")
                            .addStructuredMetadata(pair("b", "1"))
                            .addStructuredMetadata(pair("a", "2"))
                            .addStructuredMetadata(pair("b", "3"))))
            .build();

    Map<String, String> sm = viaReader(req.toByteArray()).get(0).entries().get(0).metadata();

    assertThat(sm).containsExactly(Map.entry("a", "2"), Map.entry("b", "3"));
    assertThat(sm).isEqualTo(Map.of("a", "2", "b", "3")).hasToString("{a=2, b=3}");
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }
}
