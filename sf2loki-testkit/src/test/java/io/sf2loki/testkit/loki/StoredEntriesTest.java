package io.sf2loki.testkit.loki;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoredEntriesTest {

  private final StoredEntries stored = new StoredEntries(new LineArena());
  private final StoredEntries.Stream a = new StoredEntries.Stream(Map.of("job", "a"));
  private final StoredEntries.Stream b = new StoredEntries.Stream(Map.of("job", "b"));

  private static DecodedEntry sliced(long ts, String line) {
    byte[] bytes = ("xx" + line).getBytes(StandardCharsets.UTF_8);
    return new DecodedEntry(ts, bytes, 2, bytes.length - 2, Map.of());
  }

  /** Stores {@code e} as the ingester does; false for a duplicate. */
  private boolean add(StoredEntries.Stream stream, DecodedEntry e) {
    return stored.add(
            stream,
            e.timestampNanos(),
            e.lineArray(),
            e.lineOffset(),
            e.lineUtf8Length(),
            PackedPairs.pack(e.metadata()))
        >= 0;
  }

  @Test
  void identicalTimestampAndLineInOneStreamIsADuplicate() {
    assertThat(add(a, sliced(5, "x"))).isTrue();
    assertThat(add(a, sliced(5, "y"))).isTrue();
    assertThat(add(a, sliced(6, "x"))).isTrue();
    assertThat(add(b, sliced(5, "x"))).isTrue();

    assertThat(add(a, sliced(5, "x"))).isFalse(); // found down the same-timestamp chain
    assertThat(add(a, new DecodedEntry(5, "y", Map.of()))).isFalse();
    assertThat(stored.size()).isEqualTo(4);
  }

  @Test
  void olderTimestampsArrivingLateAreStillDeduplicated() {
    for (long ts : new long[] {10, 20, 30, 15, 5, 25}) {
      assertThat(add(a, sliced(ts, "x"))).isTrue();
    }

    for (long ts : new long[] {5, 10, 15, 20, 25, 30}) {
      assertThat(add(a, sliced(ts, "x"))).as("ts %d", ts).isFalse();
    }
    assertThat(add(a, sliced(15, "other"))).isTrue();
    assertThat(add(a, sliced(15, "other"))).isFalse();
  }

  @Test
  void keepsArrivalOrderAcrossChunksAndStreams() {
    for (int i = 0; i < 40_000; i++) {
      assertThat(add(i % 2 == 0 ? a : b, sliced(i / 2, "line " + i))).isTrue();
    }

    var accepted = stored.accepted();

    assertThat(accepted).hasSize(40_000);
    assertThat(accepted.get(39_999))
        .isEqualTo(new AcceptedEntry(Map.of("job", "b"), 19_999, "line 39999", Map.of()));
    assertThat(add(a, sliced(12_345, "line 24690"))).isFalse();
  }

  @Test
  void linesSurviveTheArenaAcrossChunks() {
    String big = "é".repeat(LineArena.CHUNK_BYTES / 8 - 1); // just under a quarter chunk
    for (int i = 0; i < 10; i++) {
      assertThat(add(a, sliced(i, big + i))).isTrue();
    }

    assertThat(stored.accepted()).extracting(AcceptedEntry::line).contains(big + 0, big + 9);
  }

  @Test
  void aLineLongerThanAQuarterChunkIsStoredWhole() {
    String huge = "z".repeat(LineArena.CHUNK_BYTES / 2);
    add(a, sliced(1, "small"));
    add(a, sliced(2, huge));
    add(a, sliced(3, "after"));

    assertThat(stored.accepted())
        .extracting(AcceptedEntry::line)
        .containsExactly("small", huge, "after");
  }

  @Test
  void metadataComesBackSortedWithLongAndNonAsciiValues() {
    String longValue = "v".repeat(300); // a two-byte length prefix
    add(a, new DecodedEntry(7, "x", Map.of("user_id", "005é", "a", longValue, "empty", "")));

    AcceptedEntry e = stored.accepted().get(0);

    assertThat(e.metadata())
        .containsExactly(
            Map.entry("a", longValue), Map.entry("empty", ""), Map.entry("user_id", "005é"));
  }

  @Test
  void aStoredSlotReadsBackAsTheEntryThatWasAdded() {
    DecodedEntry in = new DecodedEntry(9, "line ✓", Map.of("k", "v"));
    int slot =
        stored.add(
            a,
            9,
            in.lineArray(),
            in.lineOffset(),
            in.lineUtf8Length(),
            PackedPairs.pack(in.metadata()));

    assertThat(stored.entry(slot)).isEqualTo(in);
  }
}
