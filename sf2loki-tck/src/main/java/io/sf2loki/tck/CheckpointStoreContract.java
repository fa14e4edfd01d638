package io.sf2loki.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CorruptStateException;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.Term;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link CheckpointStore} that is also an {@link EpochFloor} must have: the
 * document format, corruption handling, uniform epoch fencing, merging of only the committed keys,
 * and a property over random interleavings of fenced writers. A backend's test extends this class
 * and tells it how to open stores on one document and how to read and plant raw bytes.
 */
public abstract class CheckpointStoreContract {

  private static final String EPOCH = CheckpointToken.RESERVED_EPOCH_KEY;
  private final List<CheckpointStore> opened = new ArrayList<>();

  /** Points the test at a new, empty document location; later {@link #openStore} calls use it. */
  protected abstract void useNewDocument() throws Exception;

  /**
   * A new store instance (another writer) on the current document. It must not hold a lifetime
   * lock: several are open at once.
   */
  protected abstract CheckpointStore newStore() throws Exception;

  /** Replaces the stored bytes of the current document behind the stores' backs. */
  protected abstract void writeRaw(byte[] bytes) throws Exception;

  /** The stored bytes of the current document, empty when it does not exist. */
  protected abstract Optional<byte[]> readRaw() throws Exception;

  /** Examples the interleaving property runs; slow backends may lower it. */
  protected int propertyExamples() {
    return 60;
  }

  /** A store opened through {@link #newStore()}, closed after the test. */
  protected final CheckpointStore openStore() throws Exception {
    CheckpointStore store = newStore();
    opened.add(store);
    return store;
  }

  @BeforeEach
  void newDocumentForEachTest() throws Exception {
    useNewDocument();
  }

  @AfterEach
  void closeStores() {
    opened.forEach(CheckpointStore::close);
    opened.clear();
  }

  /** A controllable fence: a writer's term with an epoch that may lose its lease. */
  public static final class TestFence implements Term {
    private final String holder;
    private final long epoch;
    private final boolean fenced;
    private volatile boolean current = true;

    public TestFence(String holder, long epoch) {
      this(holder, epoch, true);
    }

    private TestFence(String holder, long epoch, boolean fenced) {
      this.holder = holder;
      this.epoch = epoch;
      this.fenced = fenced;
    }

    /** A term like the {@code noop} coordinator's: epoch 0 and no fencing epoch. */
    public static TestFence unfenced(String holder) {
      return new TestFence(holder, 0, false);
    }

    public TestFence lose() {
      current = false;
      return this;
    }

    @Override
    public long epoch() {
      return epoch;
    }

    @Override
    public OptionalLong fencingEpoch() {
      return fenced ? OptionalLong.of(epoch) : OptionalLong.empty();
    }

    @Override
    public String holder() {
      return holder;
    }

    @Override
    public boolean isCurrent() {
      return current;
    }

    @Override
    public String describe() {
      return holder + " (epoch " + epoch + ")";
    }
  }

  protected static TestFence epoch(long epoch) {
    return new TestFence("writer-" + epoch, epoch);
  }

  static EpochFloor floor(CheckpointStore store) {
    assertThat(store).isInstanceOf(EpochFloor.class);
    return (EpochFloor) store;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void missingDocumentReadsAsEmptyWithNoEpoch() throws Exception {
    CheckpointStore store = openStore();
    assertThat(store.loadAll()).isEmpty();
    assertThat(store.load("apexlog")).isEmpty();
    assertThat(floor(store).persistedEpoch()).isEmpty();
    assertThat(readRaw()).isEmpty();
  }

  @Test
  void documentWithoutEpochKeyHasNoPersistedEpoch() throws Exception {
    writeRaw(utf8("{\"apexlog\": \"x\"}"));
    assertThat(floor(openStore()).persistedEpoch()).isEmpty();
  }

  @Test
  void commitOfManyKeysWritesOneDocumentInPythonFormat() throws Exception {
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

  @Test
  void nonAsciiValuesAreEscapedAndRoundTrip() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("k", "café ☕ \uD83D\uDE00 \u007f"), Fence.NONE);
    String raw = new String(readRaw().orElseThrow(), StandardCharsets.UTF_8);
    assertThat(raw).isEqualTo("{\"k\": \"caf\\u00e9 \\u2615 \\ud83d\\ude00 \\u007f\"}");
    assertThat(openStore().load("k")).contains("café ☕ \uD83D\uDE00 \u007f");
  }

  @Test
  void readsAnyWhitespaceAndKeyOrder() throws Exception {
    writeRaw(utf8("\n {\n  \"b\" : \"2\",\n\t\"__fence_epoch__\":\"4\", \"a\":\"1\" }\n"));
    CheckpointStore store = openStore();
    assertThat(store.loadAll())
        .containsOnly(Map.entry("a", "1"), Map.entry("b", "2"), Map.entry(EPOCH, "4"));
    assertThat(floor(store).persistedEpoch()).hasValue(4);
  }

  @Test
  void fencedCommitPersistsTheWritersEpoch() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1"), epoch(7));
    assertThat(store.loadAll()).containsOnly(Map.entry("a", "1"), Map.entry(EPOCH, "7"));
    assertThat(floor(store).persistedEpoch()).hasValue(7);
  }

  @Test
  void emptyFencedCommitStampsANewEpochSoALaterAcquireGoesAboveIt() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1"), epoch(3));
    store.commit(Map.of(), epoch(4));
    assertThat(floor(openStore()).persistedEpoch()).hasValue(4);
    assertThat(store.loadAll()).containsOnly(Map.entry("a", "1"), Map.entry(EPOCH, "4"));
  }

  @Test
  void emptyFencedCommitAtThePersistedEpochWritesNothing() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1"), epoch(4));
    byte[] before = readRaw().orElseThrow();
    store.commit(Map.of(), epoch(4));
    assertThat(readRaw()).hasValueSatisfying(b -> assertThat(b).isEqualTo(before));
  }

  @Test
  void emptyUnfencedCommitWritesNothing() throws Exception {
    openStore().commit(Map.of(), Fence.NONE);
    assertThat(readRaw()).isEmpty();
  }

  @Test
  void commitBelowPersistedEpochIsFencedAndChangesNothing() throws Exception {
    openStore().commit(Map.of("a", "new"), epoch(5));
    byte[] before = readRaw().orElseThrow();
    CheckpointStore stale = openStore();
    assertThatThrownBy(() -> stale.commit(Map.of("a", "old", "b", "x"), epoch(4)))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("epoch 4")
        .hasMessageContaining("epoch 5")
        .hasMessageContaining(stale.location());
    assertThat(readRaw()).hasValueSatisfying(b -> assertThat(b).isEqualTo(before));
  }

  @Test
  void staleFenceIsRefusedBeforeAnyWrite() throws Exception {
    CheckpointStore store = openStore();
    assertThatThrownBy(() -> store.commit(Map.of("a", "1"), epoch(9).lose()))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("writer-9");
    assertThat(readRaw()).isEmpty();
  }

  @Test
  void equalEpochCommitPasses() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1"), epoch(3));
    openStore().commit(Map.of("a", "2"), epoch(3));
    assertThat(store.load("a")).contains("2");
  }

  @Test
  void unfencedCommitKeepsThePersistedEpoch() throws Exception {
    openStore().commit(Map.of("a", "1"), epoch(6));
    CheckpointStore operator = openStore();
    operator.commit(Map.of("b", "2"), Fence.NONE);
    assertThat(operator.loadAll())
        .containsOnly(Map.entry("a", "1"), Map.entry("b", "2"), Map.entry(EPOCH, "6"));
  }

  @Test
  void commitKeepsKeysItDoesNotNameSoAnOperatorRepairSurvives() throws Exception {
    CheckpointStore leader = openStore();
    leader.commit(Map.of("a", "1", "b", "1"), epoch(2));
    openStore().commit(Map.of("b", "repaired"), Fence.NONE);
    leader.commit(Map.of("a", "2"), epoch(2));
    assertThat(leader.loadAll())
        .containsOnly(Map.entry("a", "2"), Map.entry("b", "repaired"), Map.entry(EPOCH, "2"));
  }

  @Test
  void deleteRemovesOnlyTheNamedKeys() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1", "b", "2", "c", "3"), epoch(1));
    store.delete(Set.of("a", "c", "absent"), epoch(1));
    assertThat(store.loadAll()).containsOnly(Map.entry("b", "2"), Map.entry(EPOCH, "1"));
  }

  @Test
  void deleteOfAbsentKeysWritesNothing() throws Exception {
    writeRaw(utf8("{\"a\":\"1\"}"));
    openStore().delete(Set.of("x"), epoch(3));
    assertThat(new String(readRaw().orElseThrow(), StandardCharsets.UTF_8))
        .isEqualTo("{\"a\":\"1\"}");
  }

  @Test
  void deleteBelowPersistedEpochIsFencedAndChangesNothing() throws Exception {
    openStore().commit(Map.of("a", "1"), epoch(8));
    byte[] before = readRaw().orElseThrow();
    assertThatThrownBy(() -> openStore().delete(Set.of("a"), epoch(2)))
        .isInstanceOf(FencedException.class);
    assertThat(readRaw()).hasValueSatisfying(b -> assertThat(b).isEqualTo(before));
  }

  @Test
  void persistedEpochIsReadFreshNeverFromACache() throws Exception {
    CheckpointStore reader = openStore();
    assertThat(floor(reader).persistedEpoch()).isEmpty();
    reader.loadAll();
    openStore().commit(Map.of("a", "1"), epoch(12));
    assertThat(floor(reader).persistedEpoch()).hasValue(12);
  }

  @Test
  void truncatedDocumentIsCorruptNamedAndLeftUntouched() throws Exception {
    assertCorrupt(utf8("{\"a\": \"1\", \"b\": \"tru"));
  }

  @Test
  void nonUtf8DocumentIsCorrupt() throws Exception {
    assertCorrupt(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'});
  }

  @Test
  void nonObjectDocumentIsCorrupt() throws Exception {
    assertCorrupt(utf8("[\"a\", \"b\"]"));
  }

  @Test
  void nonStringValueIsCorrupt() throws Exception {
    assertCorrupt(utf8("{\"a\": 1}"));
  }

  @Test
  void emptyDocumentIsCorrupt() throws Exception {
    assertCorrupt(new byte[0]);
  }

  private void assertCorrupt(byte[] bytes) throws Exception {
    writeRaw(bytes);
    CheckpointStore store = openStore();
    assertThatThrownBy(store::loadAll)
        .isInstanceOf(CorruptStateException.class)
        .hasMessageContaining(store.location())
        .hasMessageContaining("corrupt");
    assertThatThrownBy(() -> store.commit(Map.of("a", "2"), Fence.NONE))
        .isInstanceOf(CorruptStateException.class);
    assertThatThrownBy(() -> store.commit(Map.of("a", "2"), epoch(1)))
        .isInstanceOf(CorruptStateException.class);
    assertThatThrownBy(() -> floor(store).persistedEpoch())
        .isInstanceOf(CorruptStateException.class);
    assertThat(readRaw()).hasValueSatisfying(b -> assertThat(b).isEqualTo(bytes));
  }

  @Test
  void nonIntegerEpochIsATypedErrorNamingLocationAndRepair() throws Exception {
    writeRaw(utf8("{\"a\": \"1\", \"__fence_epoch__\": \"seven\"}"));
    CheckpointStore store = openStore();
    assertThatThrownBy(() -> floor(store).persistedEpoch())
        .isInstanceOf(CorruptStateException.class)
        .hasMessageContaining(store.location())
        .hasMessageContaining("seven")
        .hasMessageContaining("state set --force __fence_epoch__");
    assertThatThrownBy(() -> store.commit(Map.of("a", "2"), epoch(3)))
        .isInstanceOf(CorruptStateException.class);
  }

  @Test
  void unfencedWriteRepairsAPoisonedEpoch() throws Exception {
    writeRaw(utf8("{\"a\": \"1\", \"__fence_epoch__\": \"seven\"}"));
    CheckpointStore operator = openStore();
    operator.commit(Map.of(EPOCH, "7"), Fence.NONE);
    assertThat(floor(operator).persistedEpoch()).hasValue(7);
    assertThat(operator.load("a")).contains("1");
  }

  /**
   * Random interleavings of commits and deletes from writers with epochs 1..3 and an unfenced
   * operator: the persisted epoch never decreases, a rejected write changes nothing, and the final
   * document equals a model map.
   */
  @Test
  void interleavedWritersNeverLowerTheEpochAndMatchTheModel() {
    qt().withExamples(propertyExamples())
        .withShrinkCycles(50)
        .forAll(lists().of(integers().between(0, 4 * 3 * 4 * 5 - 1)).ofSizeBetween(1, 20))
        .checkAssert(this::runInterleaving);
  }

  private void runInterleaving(List<Integer> ops) {
    try {
      useNewDocument();
      List<CheckpointStore> writers = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        writers.add(newStore());
      }
      try {
        Map<String, String> model = new LinkedHashMap<>();
        for (int op : ops) {
          step(op, writers, model);
        }
        assertThat(writers.get(0).loadAll()).isEqualTo(model);
      } finally {
        writers.forEach(CheckpointStore::close);
      }
    } catch (RuntimeException | AssertionError e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void step(int op, List<CheckpointStore> writers, Map<String, String> model) {
    int writer = op % 4;
    int kind = (op / 4) % 3;
    String key = "k" + (op / 12) % 4;
    String value = "v" + op / 48;
    Fence fence = writer == 3 ? Fence.NONE : epoch(writer + 1);
    CheckpointStore store = writers.get(writer);
    OptionalLong before = floor(store).persistedEpoch();
    Map<String, String> docBefore = store.loadAll();
    long stored = before.orElse(0);
    boolean rejected =
        fence.fencingEpoch().isPresent() && stored > fence.fencingEpoch().getAsLong();
    Runnable write =
        kind < 2
            ? () -> store.commit(Map.of(key, value), fence)
            : () -> store.delete(Set.of(key), fence);
    if (rejected) {
      assertThatThrownBy(write::run).isInstanceOf(FencedException.class);
      assertThat(store.loadAll()).isEqualTo(docBefore);
      return;
    }
    write.run();
    boolean changes = kind < 2 || model.containsKey(key);
    if (kind < 2) {
      model.put(key, value);
    } else {
      model.remove(key);
    }
    if (changes && fence.fencingEpoch().isPresent()) {
      model.put(EPOCH, Long.toString(fence.fencingEpoch().getAsLong()));
    }
    OptionalLong after = floor(store).persistedEpoch();
    assertThat(after.orElse(0)).isGreaterThanOrEqualTo(stored);
    assertThat(store.loadAll()).isEqualTo(model);
  }
}
