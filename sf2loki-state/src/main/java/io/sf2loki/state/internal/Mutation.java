package io.sf2loki.state.internal;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.Term;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A commit or a delete, with the epoch-fencing rules every backend applies to the <em>fresh</em>
 * document before writing (invariant 2): the fence must be current, its epoch must not be below the
 * persisted one, only the named keys change and a fenced write stamps its epoch. {@link Fence#NONE}
 * skips the epoch rules and keeps the persisted epoch.
 */
public sealed interface Mutation permits Mutation.Commit, Mutation.Delete, Mutation.Claim {

  /** The writer's fence. */
  Fence fence();

  /** {@code commit} or {@code delete}, for messages and metrics. */
  String verb();

  /**
   * Applies this change to the fresh document.
   *
   * @return the document to write, or empty when nothing changes and no write is needed
   * @throws FencedException the fence is stale or below the persisted epoch
   * @throws io.sf2loki.spi.CorruptStateException the persisted epoch is not an integer
   */
  Optional<Map<String, String>> applyTo(Map<String, String> fresh, String location);

  /** A commit of {@code updates}. */
  static Mutation commit(Map<String, String> updates, Fence fence) {
    return new Commit(updates, fence);
  }

  /** A delete of {@code keys}. */
  static Mutation delete(Set<String> keys, Fence fence) {
    return new Delete(keys, fence);
  }

  /** A new leader's claim of its epoch (see {@link io.sf2loki.spi.EpochClaim}). */
  static Mutation claim(Term term) {
    return new Claim(term);
  }

  /**
   * Whether finding exactly the bytes this mutation would write proves that our own earlier attempt
   * landed. True for commits and deletes; false for a claim, because a rival claiming the same
   * epoch over the same document writes the same bytes.
   */
  default boolean provenByContent() {
    return true;
  }

  /**
   * Fails before any I/O when the fence is no longer current.
   *
   * @throws FencedException naming the location and the writer
   */
  static void requireCurrent(Fence fence, String location) {
    if (!fence.isCurrent()) {
      throw new FencedException(
          "refusing checkpoint write to "
              + location
              + ": "
              + fence.describe()
              + " no longer holds the lease (leadership lost) — the new leader owns the"
              + " checkpoints now");
    }
  }

  /** Checks the epoch rule against the fresh document; returns the epoch to stamp, if any. */
  private static OptionalLong checkEpoch(Fence fence, Map<String, String> fresh, String location) {
    requireCurrent(fence, location);
    OptionalLong mine = fence.fencingEpoch();
    if (mine.isEmpty()) {
      return mine;
    }
    OptionalLong stored = StateDocument.epoch(fresh, location);
    if (stored.isPresent() && stored.getAsLong() > mine.getAsLong()) {
      throw new FencedException(
          "stale leader (epoch "
              + mine.getAsLong()
              + ") rejected: state "
              + location
              + " was already advanced to epoch "
              + stored.getAsLong()
              + " by a newer leader");
    }
    return mine;
  }

  /**
   * True when stamping {@code stamp} changes the persisted epoch. An empty fenced commit is how a
   * new leader records its epoch before any data moves, so that a standby taking a lost or deleted
   * lease later goes above it (invariant 2); when the epoch is already there, it writes nothing.
   */
  private static boolean raisesEpoch(
      OptionalLong stamp, Map<String, String> fresh, String location) {
    if (stamp.isEmpty()) {
      return false;
    }
    OptionalLong stored = StateDocument.epoch(fresh, location);
    return stored.isEmpty() || stored.getAsLong() != stamp.getAsLong();
  }

  /** A commit of several keys as one write. */
  record Commit(Map<String, String> updates, Fence fence) implements Mutation {

    public Commit {
      Objects.requireNonNull(fence, "fence");
      updates = Collections.unmodifiableMap(new LinkedHashMap<>(updates));
      for (Map.Entry<String, String> e : updates.entrySet()) {
        Objects.requireNonNull(e.getKey(), "checkpoint key");
        Objects.requireNonNull(e.getValue(), "checkpoint value");
        if (e.getKey().isBlank()) {
          throw new IllegalArgumentException("checkpoint key must not be blank");
        }
      }
      String epoch = updates.get(CheckpointToken.RESERVED_EPOCH_KEY);
      if (epoch != null) {
        if (fence.fencingEpoch().isPresent()) {
          throw new IllegalArgumentException(
              CheckpointToken.RESERVED_EPOCH_KEY + " is stamped by the fence; do not commit it");
        }
        if (!epoch.matches("[0-9]{1,18}")) {
          throw new IllegalArgumentException(
              CheckpointToken.RESERVED_EPOCH_KEY + " must be a non-negative integer");
        }
      }
    }

    @Override
    public String verb() {
      return "commit";
    }

    @Override
    public Optional<Map<String, String>> applyTo(Map<String, String> fresh, String location) {
      OptionalLong stamp = checkEpoch(fence, fresh, location);
      if (updates.isEmpty() && !raisesEpoch(stamp, fresh, location)) {
        return Optional.empty();
      }
      Map<String, String> next = new LinkedHashMap<>(fresh);
      next.putAll(updates);
      stamp.ifPresent(e -> next.put(CheckpointToken.RESERVED_EPOCH_KEY, Long.toString(e)));
      return Optional.of(next);
    }
  }

  /**
   * Raises the persisted epoch strictly: of two leaders holding one epoch (a lease deleted between
   * one's claim and its first write), only the first to record it may run.
   */
  record Claim(Term fence) implements Mutation {

    public Claim {
      Objects.requireNonNull(fence, "term");
    }

    @Override
    public String verb() {
      return "epoch claim";
    }

    @Override
    public boolean provenByContent() {
      return false;
    }

    @Override
    public Optional<Map<String, String>> applyTo(Map<String, String> fresh, String location) {
      requireCurrent(fence, location);
      OptionalLong fencing = fence.fencingEpoch();
      if (fencing.isEmpty()) {
        return Optional.empty(); // an unfenced term (noop) has no epoch to claim
      }
      long mine = fencing.getAsLong();
      OptionalLong stored = StateDocument.epoch(fresh, location);
      if (stored.isPresent() && stored.getAsLong() >= mine) {
        throw new FencedException(
            "epoch "
                + mine
                + " of "
                + fence.holder()
                + " was not claimed: state "
                + location
                + " already records epoch "
                + stored.getAsLong()
                + ", so another leader got there first (the lease was lost or rewritten while"
                + " it was being taken)");
      }
      Map<String, String> next = new LinkedHashMap<>(fresh);
      next.put(CheckpointToken.RESERVED_EPOCH_KEY, Long.toString(mine));
      return Optional.of(next);
    }
  }

  /** A delete of several keys as one write; absent keys are ignored. */
  record Delete(Set<String> keys, Fence fence) implements Mutation {

    public Delete {
      Objects.requireNonNull(fence, "fence");
      keys = Set.copyOf(new LinkedHashSet<>(keys));
    }

    @Override
    public String verb() {
      return "delete";
    }

    @Override
    public Optional<Map<String, String>> applyTo(Map<String, String> fresh, String location) {
      OptionalLong stamp = checkEpoch(fence, fresh, location);
      if (keys.stream().noneMatch(fresh::containsKey)) {
        return Optional.empty();
      }
      Map<String, String> next = new LinkedHashMap<>(fresh);
      next.keySet().removeAll(keys);
      stamp.ifPresent(e -> next.put(CheckpointToken.RESERVED_EPOCH_KEY, Long.toString(e)));
      return Optional.of(next);
    }
  }
}
