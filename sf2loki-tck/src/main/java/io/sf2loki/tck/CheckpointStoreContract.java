package io.sf2loki.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link CheckpointStore} (with its {@link EpochFloor} capability), as any
 * implementation must keep it: reads of a missing document, atomic commits that keep the keys they
 * do not name, uniform epoch fencing before any write (invariant 2), the persisted epoch read
 * fresh, and a property over random interleavings of fenced and unfenced writers.
 *
 * <p>A backend's test extends this class and says how to point at a new, empty document and how to
 * open another store instance on it (another process's view). Each test method's Javadoc states the
 * rule it pins. A store that keeps the checkpoint document as bytes in the Python sf2loki's format
 * (a file, an object) also implements {@link CheckpointDocumentContract}; one that records epochs
 * with a compare-and-set extends {@link EpochClaimContract} instead of this class.
 *
 * <p>"Writes nothing" is checked by comparing {@link #storedState()} before and after the
 * operation.
 */
public abstract class CheckpointStoreContract {

  /** The reserved key that holds the last fenced writer's epoch. */
  protected static final String EPOCH = CheckpointToken.RESERVED_EPOCH_KEY;

  private final List<CheckpointStore> opened = new ArrayList<>();
  private Object pristine;

  /** Points the test at a new, empty document location; later {@link #newStore} calls use it. */
  protected abstract void useNewDocument() throws Exception;

  /**
   * A new store instance (another writer) on the current document. It must not hold a lifetime
   * lock: several are open at once. It must be an {@link EpochFloor}.
   */
  protected abstract CheckpointStore newStore() throws Exception;

  /**
   * What the backend holds for the current document, compared with {@code equals} before and after
   * an operation that must write nothing. The default is what a new store instance loads; a test
   * that also runs {@link CheckpointDocumentContract} compares the stored bytes instead, so that
   * rewriting identical content counts as a write. A backend with a version (an etag, a row
   * version) may return it for the same strength.
   */
  protected Object storedState() throws Exception {
    if (this instanceof CheckpointDocumentContract document) {
      return document.readRaw().map(HexFormat.of()::formatHex);
    }
    try (CheckpointStore fresh = newStore()) {
      return fresh.loadAll();
    }
  }

  /** Examples the interleaving property runs; slow backends may lower it. */
  protected int propertyExamples() {
    return 60;
  }

  /** A store opened through {@link #newStore()}, closed after the test. */
  public final CheckpointStore openStore() throws Exception {
    CheckpointStore store = newStore();
    opened.add(store);
    return store;
  }

  @BeforeEach
  final void newDocumentForEachTest() throws Exception {
    useNewDocument();
    pristine = storedState();
  }

  @AfterEach
  final void closeStores() {
    opened.forEach(CheckpointStore::close);
    opened.clear();
  }

  /** A current term of {@code "writer-<epoch>"} at {@code epoch}. */
  protected static FakeTerm epoch(long epoch) {
    return new FakeTerm("writer-" + epoch, epoch);
  }

  /** The store's {@link EpochFloor} capability, failing the test when it has none. */
  protected static EpochFloor floor(CheckpointStore store) {
    assertThat(store)
        .as("a checkpoint store under the kit is an EpochFloor")
        .isInstanceOf(EpochFloor.class);
    return (EpochFloor) store;
  }

  /** Fails unless the backend holds exactly what it held before the test's first write. */
  protected final void assertNothingWasEverWritten() throws Exception {
    assertThat(storedState()).as("stored state of an untouched document").isEqualTo(pristine);
  }

  /** A missing document reads as empty, with no persisted epoch, and reading creates nothing. */
  @Test
  void missingDocumentReadsAsEmptyWithNoEpoch() throws Exception {
    CheckpointStore store = openStore();
    assertThat(store.loadAll()).isEmpty();
    assertThat(store.load("apexlog")).isEmpty();
    assertThat(floor(store).persistedEpoch()).isEmpty();
    assertNothingWasEverWritten();
  }

  /** One commit of several keys is read back whole, by this instance and by another one. */
  @Test
  void commitOfManyKeysIsReadBackWholeByEveryInstance() throws Exception {
    CheckpointStore store = openStore();
    Map<String, String> updates = new LinkedHashMap<>();
    updates.put("pubsub:/event/LoginEventStream", "AAAAAAAH3sQ=");
    updates.put("apexlog", "{\"ids\": []}");
    updates.put("eventlogfile:Login", "2026-01-01T00:00:00.000Z|0ATxx0000000001");
    store.commit(updates, Fence.NONE);
    assertThat(store.loadAll()).isEqualTo(updates);
    assertThat(openStore().loadAll()).isEqualTo(updates);
    assertThat(openStore().load("apexlog")).contains("{\"ids\": []}");
  }

  /** Keys and values of any Unicode (accents, symbols, astral characters, controls) round-trip. */
  @Test
  void unicodeKeysAndValuesRoundTrip() throws Exception {
    String text = "café ☕ \uD83D\uDE00 \u007f \" \\ \n\t";
    openStore().commit(Map.of("k:" + text, text), Fence.NONE);
    assertThat(openStore().loadAll()).containsOnly(Map.entry("k:" + text, text));
  }

  /** A fenced commit persists its writer's epoch under the reserved key. */
  @Test
  void fencedCommitPersistsTheWritersEpoch() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1"), epoch(7));
    assertThat(store.loadAll()).containsOnly(Map.entry("a", "1"), Map.entry(EPOCH, "7"));
    assertThat(floor(store).persistedEpoch()).hasValue(7);
  }

  /**
   * A fenced commit of no keys above the persisted epoch still records the new epoch (the engine's
   * stamp at acquire when the store cannot claim), so a later acquire goes above it.
   */
  @Test
  void emptyFencedCommitStampsANewEpochSoALaterAcquireGoesAboveIt() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1"), epoch(3));
    store.commit(Map.of(), epoch(4));
    assertThat(floor(openStore()).persistedEpoch()).hasValue(4);
    assertThat(store.loadAll()).containsOnly(Map.entry("a", "1"), Map.entry(EPOCH, "4"));
  }

  /** A fenced commit of no keys at the persisted epoch changes nothing and writes nothing. */
  @Test
  void emptyFencedCommitAtThePersistedEpochWritesNothing() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1"), epoch(4));
    Object before = storedState();
    store.commit(Map.of(), epoch(4));
    assertThat(storedState()).isEqualTo(before);
  }

  /** An unfenced commit of no keys writes nothing, not even an empty document. */
  @Test
  void emptyUnfencedCommitWritesNothing() throws Exception {
    openStore().commit(Map.of(), Fence.NONE);
    assertNothingWasEverWritten();
  }

  /**
   * A commit whose epoch is below the persisted one is refused with a {@link FencedException} that
   * names both epochs and the location, and changes nothing.
   */
  @Test
  void commitBelowPersistedEpochIsFencedAndChangesNothing() throws Exception {
    openStore().commit(Map.of("a", "new"), epoch(5));
    Object before = storedState();
    CheckpointStore stale = openStore();
    assertThatThrownBy(() -> stale.commit(Map.of("a", "old", "b", "x"), epoch(4)))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("epoch 4")
        .hasMessageContaining("epoch 5")
        .hasMessageContaining(stale.location());
    assertThat(storedState()).isEqualTo(before);
  }

  /** A commit under a term that is no longer current is refused before any I/O writes anything. */
  @Test
  void staleFenceIsRefusedBeforeAnyWrite() throws Exception {
    CheckpointStore store = openStore();
    assertThatThrownBy(() -> store.commit(Map.of("a", "1"), epoch(9).lose()))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("writer-9");
    assertNothingWasEverWritten();
  }

  /** Equal epochs pass the fence: one leader's term commits through several store instances. */
  @Test
  void equalEpochCommitPasses() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1"), epoch(3));
    openStore().commit(Map.of("a", "2"), epoch(3));
    assertThat(store.load("a")).contains("2");
  }

  /** {@link Fence#NONE} (an operator's {@code --force}) is not checked and keeps the epoch. */
  @Test
  void unfencedCommitKeepsThePersistedEpoch() throws Exception {
    openStore().commit(Map.of("a", "1"), epoch(6));
    CheckpointStore operator = openStore();
    operator.commit(Map.of("b", "2"), Fence.NONE);
    assertThat(operator.loadAll())
        .containsOnly(Map.entry("a", "1"), Map.entry("b", "2"), Map.entry(EPOCH, "6"));
  }

  /**
   * A commit merges into the fresh document: keys it does not name keep the values another writer
   * gave them, even when this instance read the document before (an operator's repair survives).
   */
  @Test
  void commitKeepsKeysItDoesNotNameSoAnOperatorRepairSurvives() throws Exception {
    CheckpointStore leader = openStore();
    leader.commit(Map.of("a", "1", "b", "1"), epoch(2));
    openStore().commit(Map.of("b", "repaired"), Fence.NONE);
    leader.commit(Map.of("a", "2"), epoch(2));
    assertThat(leader.loadAll())
        .containsOnly(Map.entry("a", "2"), Map.entry("b", "repaired"), Map.entry(EPOCH, "2"));
  }

  /** A delete removes only the keys it names; absent ones are ignored. */
  @Test
  void deleteRemovesOnlyTheNamedKeys() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1", "b", "2", "c", "3"), epoch(1));
    store.delete(Set.of("a", "c", "absent"), epoch(1));
    assertThat(store.loadAll()).containsOnly(Map.entry("b", "2"), Map.entry(EPOCH, "1"));
  }

  /** A delete of keys none of which is present writes nothing, not even a higher epoch. */
  @Test
  void deleteOfOnlyAbsentKeysWritesNothing() throws Exception {
    openStore().commit(Map.of("a", "1"), epoch(2));
    Object before = storedState();
    openStore().delete(Set.of("x", "y"), epoch(3));
    assertThat(storedState()).isEqualTo(before);
    assertThat(floor(openStore()).persistedEpoch()).hasValue(2);
  }

  /** A delete whose epoch is below the persisted one is fenced like a commit. */
  @Test
  void deleteBelowPersistedEpochIsFencedAndChangesNothing() throws Exception {
    openStore().commit(Map.of("a", "1"), epoch(8));
    Object before = storedState();
    assertThatThrownBy(() -> openStore().delete(Set.of("a"), epoch(2)))
        .isInstanceOf(FencedException.class);
    assertThat(storedState()).isEqualTo(before);
  }

  /**
   * {@link EpochFloor#persistedEpoch()} reads the backend every time: another instance's write is
   * seen at once, whatever this instance has cached.
   */
  @Test
  void persistedEpochIsReadFreshNeverFromACache() throws Exception {
    CheckpointStore reader = openStore();
    assertThat(floor(reader).persistedEpoch()).isEmpty();
    reader.loadAll();
    openStore().commit(Map.of("a", "1"), epoch(12));
    assertThat(floor(reader).persistedEpoch()).hasValue(12);
  }

  /** {@link CheckpointStore#close()} is idempotent. */
  @Test
  void closeIsIdempotent() throws Exception {
    CheckpointStore store = openStore();
    store.commit(Map.of("a", "1"), Fence.NONE);
    store.close();
    store.close();
    assertThat(openStore().load("a")).contains("1");
  }

  /**
   * Random interleavings of commits and deletes from writers with epochs 1..3 and an unfenced
   * operator, each through its own instance: the persisted epoch never decreases, a rejected write
   * changes nothing, and the final document equals a model map.
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
