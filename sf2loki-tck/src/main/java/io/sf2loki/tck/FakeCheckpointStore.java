package io.sf2loki.tck;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CorruptStateException;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.Term;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A checkpoint store in memory with the documented fencing rules, for coordinator tests that need a
 * store: a write whose fence is not current or whose epoch is below the persisted {@code
 * __fence_epoch__} is refused before any change, a fenced write persists its epoch, and a claim is
 * a compare-and-set that only moves the epoch upwards. Linearizable: every call holds the
 * document's lock. It passes {@link EpochClaimContract} (the kit's own tests run it).
 *
 * <p>{@link #sibling()} opens another instance on the same document, as another process would.
 */
public final class FakeCheckpointStore implements CheckpointStore, EpochFloor, EpochClaim {

  private static final String EPOCH = CheckpointToken.RESERVED_EPOCH_KEY;

  private final Map<String, String> document;
  private final String location;

  /** A store on a new, empty document at {@code memory://state}. */
  public FakeCheckpointStore() {
    this(new LinkedHashMap<>(), "memory://state");
  }

  private FakeCheckpointStore(Map<String, String> document, String location) {
    this.document = document;
    this.location = location;
  }

  /** Another instance on this store's document. */
  public FakeCheckpointStore sibling() {
    return new FakeCheckpointStore(document, location);
  }

  @Override
  public Map<String, String> loadAll() {
    synchronized (document) {
      return new LinkedHashMap<>(document);
    }
  }

  @Override
  public Optional<String> load(String key) {
    synchronized (document) {
      return Optional.ofNullable(document.get(key));
    }
  }

  @Override
  public void commit(Map<String, String> updates, Fence fence) {
    synchronized (document) {
      OptionalLong persisted = check(fence, "commit");
      boolean raises =
          fence.fencingEpoch().isPresent()
              && fence.fencingEpoch().getAsLong() > persisted.orElse(-1);
      if (updates.isEmpty() && !raises) {
        return;
      }
      document.putAll(updates);
      stamp(fence);
    }
  }

  @Override
  public void delete(Set<String> keys, Fence fence) {
    synchronized (document) {
      check(fence, "delete");
      if (keys.stream().noneMatch(document::containsKey)) {
        return;
      }
      keys.forEach(document::remove);
      stamp(fence);
    }
  }

  @Override
  public void claimEpoch(Term term) {
    synchronized (document) {
      OptionalLong persisted = check(term, "claim");
      if (term.fencingEpoch().isEmpty()) {
        return;
      }
      if (persisted.isPresent() && persisted.getAsLong() >= term.epoch()) {
        throw new FencedException(
            location
                + ": refusing claim: "
                + term.describe()
                + " is not above the recorded epoch "
                + persisted.getAsLong());
      }
      stamp(term);
    }
  }

  @Override
  public OptionalLong persistedEpoch() {
    synchronized (document) {
      String raw = document.get(EPOCH);
      if (raw == null) {
        return OptionalLong.empty();
      }
      try {
        return OptionalLong.of(Long.parseLong(raw));
      } catch (NumberFormatException e) {
        throw new CorruptStateException(
            location
                + ": "
                + EPOCH
                + " holds '"
                + raw
                + "', not an integer; repair it with `sf2loki-cli state set --force "
                + EPOCH
                + " <N>`");
      }
    }
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public void close() {}

  /** Invariant 2: refuses a stale fence or one below the persisted epoch, before any change. */
  private OptionalLong check(Fence fence, String what) {
    if (!fence.isCurrent()) {
      throw new FencedException(
          location + ": refusing " + what + ": " + fence.describe() + " is no longer current");
    }
    if (fence.fencingEpoch().isEmpty()) {
      return document.containsKey(EPOCH) ? persistedEpochLenient() : OptionalLong.empty();
    }
    OptionalLong persisted = persistedEpoch();
    long mine = fence.fencingEpoch().getAsLong();
    if (persisted.isPresent() && mine < persisted.getAsLong()) {
      throw new FencedException(
          location
              + ": refusing "
              + what
              + ": "
              + fence.describe()
              + " is below the persisted epoch "
              + persisted.getAsLong());
    }
    return persisted;
  }

  /** An unfenced write (an operator repairing the epoch) is not blocked by a corrupt epoch. */
  private OptionalLong persistedEpochLenient() {
    try {
      return persistedEpoch();
    } catch (CorruptStateException e) {
      return OptionalLong.empty();
    }
  }

  private void stamp(Fence fence) {
    fence.fencingEpoch().ifPresent(e -> document.put(EPOCH, Long.toString(e)));
  }
}
