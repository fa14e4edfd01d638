package io.sf2loki.testkit.loki;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoredEntriesTest {

  private final StoredEntries stored = new StoredEntries();
  private final StoredEntries.Stream a = new StoredEntries.Stream(Map.of("job", "a"));
  private final StoredEntries.Stream b = new StoredEntries.Stream(Map.of("job", "b"));

  private static DecodedEntry sliced(long ts, String line) {
    byte[] bytes = ("xx" + line).getBytes(StandardCharsets.UTF_8);
    return new DecodedEntry(ts, bytes, 2, bytes.length - 2, Map.of());
  }

  @Test
  void identicalTimestampAndLineInOneStreamIsADuplicate() {
    assertThat(stored.add(a, sliced(5, "x"))).isTrue();
    assertThat(stored.add(a, sliced(5, "y"))).isTrue();
    assertThat(stored.add(a, sliced(6, "x"))).isTrue();
    assertThat(stored.add(b, sliced(5, "x"))).isTrue();

    assertThat(stored.add(a, sliced(5, "x"))).isFalse(); // found down the same-timestamp chain
    assertThat(stored.add(a, new DecodedEntry(5, "y", Map.of()))).isFalse();
    assertThat(stored.size()).isEqualTo(4);
  }

  @Test
  void olderTimestampsArrivingLateAreStillDeduplicated() {
    for (long ts : new long[] {10, 20, 30, 15, 5, 25}) {
      assertThat(stored.add(a, sliced(ts, "x"))).isTrue();
    }

    for (long ts : new long[] {5, 10, 15, 20, 25, 30}) {
      assertThat(stored.add(a, sliced(ts, "x"))).as("ts %d", ts).isFalse();
    }
    assertThat(stored.add(a, sliced(15, "other"))).isTrue();
    assertThat(stored.add(a, sliced(15, "other"))).isFalse();
  }

  @Test
  void keepsArrivalOrderAcrossChunksAndStreams() {
    for (int i = 0; i < 40_000; i++) {
      assertThat(stored.add(i % 2 == 0 ? a : b, sliced(i / 2, "line " + i))).isTrue();
    }

    var accepted = stored.accepted();

    assertThat(accepted).hasSize(40_000);
    assertThat(accepted.get(39_999))
        .isEqualTo(new AcceptedEntry(Map.of("job", "b"), 19_999, "line 39999", Map.of()));
    assertThat(stored.add(a, sliced(12_345, "line 24690"))).isFalse();
  }

  @Test
  void linesSurviveTheArenaAcrossChunks() {
    LineArena arena = new LineArena();
    String big = "é".repeat(LineArena.CHUNK_BYTES / 8 - 1); // just under a quarter chunk
    for (int i = 0; i < 10; i++) {
      DecodedEntry kept = sliced(i, big + i).storedIn(arena);
      assertThat(stored.add(a, kept)).isTrue();
    }

    assertThat(stored.accepted()).extracting(AcceptedEntry::line).contains(big + 0, big + 9);
  }
}
