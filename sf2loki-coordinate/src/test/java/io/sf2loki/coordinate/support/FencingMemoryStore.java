package io.sf2loki.coordinate.support;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.Term;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A checkpoint store with the documented fencing rules, in memory: a write whose fence is not
 * current or whose epoch is below the persisted {@code __fence_epoch__} is refused before any
 * change; a fenced write persists its epoch. Stands in for the real stores, which live in another
 * module.
 */
public final class FencingMemoryStore implements FencedStore {

  private final Map<String, String> document = new LinkedHashMap<>();

  @Override
  public synchronized Map<String, String> loadAll() {
    return Map.copyOf(document);
  }

  @Override
  public synchronized Optional<String> load(String key) {
    return Optional.ofNullable(document.get(key));
  }

  @Override
  public synchronized void commit(Map<String, String> updates, Fence fence) {
    check(fence);
    document.putAll(updates);
    stamp(fence);
  }

  @Override
  public synchronized void delete(Set<String> keys, Fence fence) {
    check(fence);
    keys.forEach(document::remove);
    stamp(fence);
  }

  @Override
  public synchronized void claimEpoch(Term term) {
    check(term);
    OptionalLong persisted = persistedEpoch();
    if (term.fencingEpoch().isEmpty()) {
      return;
    }
    if (persisted.isPresent() && persisted.getAsLong() >= term.epoch()) {
      throw new FencedException(
          "refusing claim: " + term.describe() + " is not above epoch " + persisted.getAsLong());
    }
    stamp(term);
  }

  @Override
  public synchronized OptionalLong persistedEpoch() {
    String v = document.get(CheckpointToken.RESERVED_EPOCH_KEY);
    return v == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(v));
  }

  @Override
  public String location() {
    return "memory://state";
  }

  @Override
  public void close() {}

  private void check(Fence fence) {
    if (!fence.isCurrent()) {
      throw new FencedException("refusing commit: " + fence.describe() + " is not current");
    }
    OptionalLong persisted = persistedEpoch();
    OptionalLong mine = fence.fencingEpoch();
    if (mine.isPresent() && persisted.isPresent() && mine.getAsLong() < persisted.getAsLong()) {
      throw new FencedException(
          "refusing commit: " + fence.describe() + " is below epoch " + persisted.getAsLong());
    }
  }

  private void stamp(Fence fence) {
    fence
        .fencingEpoch()
        .ifPresent(e -> document.put(CheckpointToken.RESERVED_EPOCH_KEY, Long.toString(e)));
  }
}
