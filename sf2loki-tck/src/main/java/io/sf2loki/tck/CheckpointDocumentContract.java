package io.sf2loki.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CorruptStateException;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The stored form of the checkpoint document, for stores that keep it as bytes a Python sf2loki
 * deployment can share (the file, S3 and GCS stores; DESIGN "File formats"): one single-line flat
 * JSON object of strings with {@code ", "} and {@code ": "} separators and non-ASCII escaped; any
 * valid UTF-8 JSON object of strings is read; anything else is {@link CorruptStateException} naming
 * the location, for reads and writes alike, and the bytes are left untouched.
 *
 * <p>A test interface (JUnit 5 runs its default methods): a test class that extends {@link
 * CheckpointStoreContract} or {@link EpochClaimContract} implements it as well and supplies raw
 * access to the current document. The contract's "writes nothing" checks then compare bytes.
 */
public interface CheckpointDocumentContract {

  /** A store on the current document, closed after the test ({@link CheckpointStoreContract}). */
  CheckpointStore openStore() throws Exception;

  /** Replaces the stored bytes of the current document behind the stores' backs. */
  void writeRaw(byte[] bytes) throws Exception;

  /** The stored bytes of the current document, empty when it does not exist. */
  Optional<byte[]> readRaw() throws Exception;

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static EpochFloor floorOf(CheckpointStore store) {
    return CheckpointStoreContract.floor(store);
  }

  /** A new document location holds no bytes, and reading it creates none. */
  @Test
  default void newDocumentHoldsNoBytesAndReadingCreatesNone() throws Exception {
    assertThat(readRaw()).isEmpty();
    openStore().loadAll();
    assertThat(readRaw()).isEmpty();
  }

  /** A commit writes one document, on one line, in the Python sf2loki's format. */
  @Test
  default void commitOfManyKeysWritesOneDocumentInPythonFormat() throws Exception {
    CheckpointStore store = openStore();
    Map<String, String> updates = new LinkedHashMap<>();
    updates.put("pubsub:/event/LoginEventStream", "AAAAAAAH3sQ=");
    updates.put("apexlog", "{\"ids\": []}");
    store.commit(updates, Fence.NONE);
    assertThat(store.loadAll()).isEqualTo(updates);
    String raw = new String(readRaw().orElseThrow(), StandardCharsets.UTF_8);
    assertThat(raw).startsWith("{\"").endsWith("\"}").doesNotContain("\n");
    assertThat(raw).contains("\"apexlog\": \"{\\\"ids\\\": []}\"");
    assertThat(raw).contains("\"pubsub:/event/LoginEventStream\": \"AAAAAAAH3sQ=\"");
  }

  /** Non-ASCII is written as lowercase {@code \\uXXXX} escapes (surrogate pairs for astral). */
  @Test
  default void nonAsciiValuesAreEscapedAndRoundTrip() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("k", "café ☕ \uD83D\uDE00 \u007f"), Fence.NONE);
    String raw = new String(readRaw().orElseThrow(), StandardCharsets.UTF_8);
    assertThat(raw).isEqualTo("{\"k\": \"caf\\u00e9 \\u2615 \\ud83d\\ude00 \\u007f\"}");
    assertThat(openStore().load("k")).contains("café ☕ \uD83D\uDE00 \u007f");
  }

  /** Any whitespace and key order is read, the reserved epoch key included. */
  @Test
  default void readsAnyWhitespaceAndKeyOrder() throws Exception {
    writeRaw(utf8("\n {\n  \"b\" : \"2\",\n\t\"__fence_epoch__\":\"4\", \"a\":\"1\" }\n"));
    CheckpointStore store = openStore();
    assertThat(store.loadAll())
        .containsOnly(
            Map.entry("a", "1"),
            Map.entry("b", "2"),
            Map.entry(CheckpointToken.RESERVED_EPOCH_KEY, "4"));
    assertThat(floorOf(store).persistedEpoch()).hasValue(4);
  }

  /** A document written without the reserved key (a Python single instance) has no epoch. */
  @Test
  default void documentWithoutEpochKeyHasNoPersistedEpoch() throws Exception {
    writeRaw(utf8("{\"apexlog\": \"x\"}"));
    assertThat(floorOf(openStore()).persistedEpoch()).isEmpty();
  }

  /** A delete that finds none of its keys leaves foreign bytes exactly as they were. */
  @Test
  default void deleteOfAbsentKeysLeavesTheBytesVerbatim() throws Exception {
    writeRaw(utf8("{\"a\":\"1\"}"));
    openStore().delete(Set.of("x"), new FakeTerm("writer-3", 3));
    assertThat(new String(readRaw().orElseThrow(), StandardCharsets.UTF_8))
        .isEqualTo("{\"a\":\"1\"}");
  }

  /** A truncated document is corrupt (what corrupt means: the private assertCorrupt below). */
  @Test
  default void truncatedDocumentIsCorruptNamedAndLeftUntouched() throws Exception {
    assertCorrupt(utf8("{\"a\": \"1\", \"b\": \"tru"));
  }

  /** Bytes that are not UTF-8 are corrupt. */
  @Test
  default void nonUtf8DocumentIsCorrupt() throws Exception {
    assertCorrupt(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'});
  }

  /** A top level other than an object is corrupt. */
  @Test
  default void nonObjectDocumentIsCorrupt() throws Exception {
    assertCorrupt(utf8("[\"a\", \"b\"]"));
  }

  /** A value other than a string is corrupt. */
  @Test
  default void nonStringValueIsCorrupt() throws Exception {
    assertCorrupt(utf8("{\"a\": 1}"));
  }

  /** An empty (zero-byte) document is corrupt, not missing. */
  @Test
  default void emptyDocumentIsCorrupt() throws Exception {
    assertCorrupt(new byte[0]);
  }

  /**
   * A corrupt document fails reads, fenced and unfenced writes and the epoch read with {@link
   * CorruptStateException} naming the location, and its bytes stay as they were.
   */
  private void assertCorrupt(byte[] bytes) throws Exception {
    writeRaw(bytes);
    CheckpointStore store = openStore();
    assertThatThrownBy(store::loadAll)
        .isInstanceOf(CorruptStateException.class)
        .hasMessageContaining(store.location())
        .hasMessageContaining("corrupt");
    assertThatThrownBy(() -> store.commit(Map.of("a", "2"), Fence.NONE))
        .isInstanceOf(CorruptStateException.class);
    assertThatThrownBy(() -> store.commit(Map.of("a", "2"), new FakeTerm("writer-1", 1)))
        .isInstanceOf(CorruptStateException.class);
    assertThatThrownBy(() -> floorOf(store).persistedEpoch())
        .isInstanceOf(CorruptStateException.class);
    assertThat(readRaw()).hasValueSatisfying(b -> assertThat(b).isEqualTo(bytes));
  }

  /**
   * A reserved key that is not an integer is a typed error naming the location, the value and the
   * repair command, for the epoch read and for fenced writes.
   */
  @Test
  default void nonIntegerEpochIsATypedErrorNamingLocationAndRepair() throws Exception {
    writeRaw(utf8("{\"a\": \"1\", \"__fence_epoch__\": \"seven\"}"));
    CheckpointStore store = openStore();
    assertThatThrownBy(() -> floorOf(store).persistedEpoch())
        .isInstanceOf(CorruptStateException.class)
        .hasMessageContaining(store.location())
        .hasMessageContaining("seven")
        .hasMessageContaining("state set --force __fence_epoch__");
    assertThatThrownBy(() -> store.commit(Map.of("a", "2"), new FakeTerm("writer-3", 3)))
        .isInstanceOf(CorruptStateException.class);
  }

  /** The repair that message names works: an unfenced write of the reserved key. */
  @Test
  default void unfencedWriteRepairsAPoisonedEpoch() throws Exception {
    writeRaw(utf8("{\"a\": \"1\", \"__fence_epoch__\": \"seven\"}"));
    CheckpointStore operator = openStore();
    operator.commit(Map.of(CheckpointToken.RESERVED_EPOCH_KEY, "7"), Fence.NONE);
    assertThat(floorOf(operator).persistedEpoch()).hasValue(7);
    assertThat(operator.load("a")).contains("1");
  }
}
