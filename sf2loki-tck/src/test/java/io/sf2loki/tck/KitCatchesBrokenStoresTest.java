package io.sf2loki.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The kit has teeth: stores that break one rule fail the tests that pin it, by name. The kits under
 * test here are nested classes, which surefire never runs by itself.
 */
class KitCatchesBrokenStoresTest {

  @Test
  void aStoreThatNeverFencesFailsTheFencingRules() {
    KitRun run = KitRun.of(NeverFencesKit.class);
    assertThat(run.failed())
        .contains(
            "commitBelowPersistedEpochIsFencedAndChangesNothing",
            "staleFenceIsRefusedBeforeAnyWrite",
            "deleteBelowPersistedEpochIsFencedAndChangesNothing",
            "interleavedWritersNeverLowerTheEpochAndMatchTheModel");
    assertThat(run.succeeded()).contains("commitOfManyKeysIsReadBackWholeByEveryInstance");
  }

  @Test
  void aStoreThatReplacesTheDocumentFailsTheMergeRule() {
    KitRun run = KitRun.of(ReplacesTheDocumentKit.class);
    assertThat(run.failed())
        .contains(
            "commitKeepsKeysItDoesNotNameSoAnOperatorRepairSurvives",
            "unfencedCommitKeepsThePersistedEpoch");
  }

  /** Runs the contract on {@link NeverFences}. */
  static class NeverFencesKit extends CheckpointStoreContract {
    private Map<String, String> document;

    @Override
    protected void useNewDocument() {
      document = new LinkedHashMap<>();
    }

    @Override
    protected CheckpointStore newStore() {
      return new NeverFences(document, false);
    }
  }

  /** Runs the contract on a store whose commits replace the whole document. */
  static class ReplacesTheDocumentKit extends CheckpointStoreContract {
    private Map<String, String> document;

    @Override
    protected void useNewDocument() {
      document = new LinkedHashMap<>();
    }

    @Override
    protected CheckpointStore newStore() {
      return new NeverFences(document, true);
    }
  }

  /** Stamps fenced writers' epochs but refuses nobody; optionally forgets keys it was not given. */
  private record NeverFences(Map<String, String> doc, boolean replaces)
      implements CheckpointStore, EpochFloor {

    @Override
    public Map<String, String> loadAll() {
      synchronized (doc) {
        return new LinkedHashMap<>(doc);
      }
    }

    @Override
    public Optional<String> load(String key) {
      return Optional.ofNullable(loadAll().get(key));
    }

    @Override
    public OptionalLong persistedEpoch() {
      String epoch = loadAll().get(CheckpointToken.RESERVED_EPOCH_KEY);
      return epoch == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(epoch));
    }

    @Override
    public void commit(Map<String, String> updates, Fence fence) {
      synchronized (doc) {
        if (updates.isEmpty() && fence.fencingEpoch().isEmpty()) {
          return;
        }
        if (replaces) {
          doc.clear();
        }
        doc.putAll(updates);
        fence
            .fencingEpoch()
            .ifPresent(e -> doc.put(CheckpointToken.RESERVED_EPOCH_KEY, Long.toString(e)));
      }
    }

    @Override
    public void delete(Set<String> keys, Fence fence) {
      synchronized (doc) {
        if (doc.keySet().removeAll(keys)) {
          fence
              .fencingEpoch()
              .ifPresent(e -> doc.put(CheckpointToken.RESERVED_EPOCH_KEY, Long.toString(e)));
        }
      }
    }

    @Override
    public String location() {
      return "map://broken";
    }

    @Override
    public void close() {}
  }
}
