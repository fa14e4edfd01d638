package io.sf2loki.pipeline;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * An in-memory {@link CheckpointStore} with the real fencing rules (stale fence or lower epoch →
 * {@link FencedException} before writing; a fenced write persists its epoch) that records every
 * commit and can be scripted to fail the next commit.
 */
public final class FakeCheckpointStore implements CheckpointStore {

  private final Map<String, String> doc = new HashMap<>();
  private final List<Map<String, String>> commits = new ArrayList<>();
  private final AtomicReference<RuntimeException> nextFailure = new AtomicReference<>();
  private volatile Consumer<Map<String, String>> beforeCommit = m -> {};
  private volatile Runnable beforeLoad = () -> {};

  public FakeCheckpointStore() {}

  public FakeCheckpointStore(Map<String, String> initial) {
    doc.putAll(initial);
  }

  /** The next commit throws {@code e} without writing. */
  public void failNextCommit(RuntimeException e) {
    nextFailure.set(e);
  }

  /** Runs {@code check} on every commit's updates before they are applied. */
  public void beforeCommit(Consumer<Map<String, String>> check) {
    this.beforeCommit = check;
  }

  /** Runs {@code hook} before every {@link #loadAll()}; a hook that throws fails the load. */
  public void beforeLoad(Runnable hook) {
    this.beforeLoad = hook;
  }

  /** Every successful commit's updates, in order. */
  public synchronized List<Map<String, String>> commits() {
    return List.copyOf(commits);
  }

  @Override
  public synchronized Map<String, String> loadAll() {
    beforeLoad.run();
    return Map.copyOf(doc);
  }

  @Override
  public synchronized Optional<String> load(String key) {
    return Optional.ofNullable(doc.get(key));
  }

  @Override
  public synchronized void commit(Map<String, String> updates, Fence fence) {
    RuntimeException failure = nextFailure.getAndSet(null);
    if (failure != null) {
      throw failure;
    }
    check(fence);
    beforeCommit.accept(updates);
    doc.putAll(updates);
    fence
        .fencingEpoch()
        .ifPresent(e -> doc.put(CheckpointToken.RESERVED_EPOCH_KEY, Long.toString(e)));
    commits.add(Map.copyOf(updates));
  }

  private void check(Fence fence) {
    if (!fence.isCurrent()) {
      throw new FencedException(fence.describe() + " is no longer current");
    }
    OptionalLong epoch = fence.fencingEpoch();
    String persisted = doc.get(CheckpointToken.RESERVED_EPOCH_KEY);
    if (epoch.isPresent() && persisted != null && epoch.getAsLong() < Long.parseLong(persisted)) {
      throw new FencedException(
          fence.describe() + " is below the persisted epoch " + persisted + " of memory://fake");
    }
  }

  @Override
  public synchronized void delete(Set<String> keys, Fence fence) {
    check(fence);
    doc.keySet().removeAll(keys);
  }

  @Override
  public String location() {
    return "memory://fake";
  }

  @Override
  public void close() {}
}
