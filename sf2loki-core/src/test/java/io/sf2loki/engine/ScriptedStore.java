package io.sf2loki.engine;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.Term;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An empty in-memory store whose epoch claims at acquire fail as scripted: {@link #failClaims}
 * queues failures for the next claims, {@link #failEveryClaim} fails all of them.
 */
final class ScriptedStore implements CheckpointStore, EpochClaim {

  private final Queue<RuntimeException> claimFailures = new ConcurrentLinkedQueue<>();
  private volatile RuntimeException always;
  final AtomicInteger claims = new AtomicInteger();

  ScriptedStore failClaims(int times, RuntimeException failure) {
    for (int i = 0; i < times; i++) {
      claimFailures.add(failure);
    }
    return this;
  }

  ScriptedStore failEveryClaim(RuntimeException failure) {
    always = failure;
    return this;
  }

  @Override
  public void claimEpoch(Term term) {
    claims.incrementAndGet();
    RuntimeException next = always != null ? always : claimFailures.poll();
    if (next != null) {
      throw next;
    }
  }

  @Override
  public Map<String, String> loadAll() {
    return Map.of();
  }

  @Override
  public Optional<String> load(String key) {
    return Optional.empty();
  }

  @Override
  public void commit(Map<String, String> updates, Fence fence) {}

  @Override
  public void delete(Set<String> keys, Fence fence) {}

  @Override
  public String location() {
    return "memory://scripted";
  }

  @Override
  public void close() {}
}
