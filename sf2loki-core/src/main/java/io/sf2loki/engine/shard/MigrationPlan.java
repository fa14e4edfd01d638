package io.sf2loki.engine.shard;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What {@link StateMigration} moves where, key by key and org by org, before anything is written.
 *
 * @param source the document the positions are read from (the configured, unsuffixed one)
 * @param sourceEpoch its {@code __fence_epoch__}, when it has one
 * @param targets one per org in the configured order, or the single-org document itself
 * @param leftBehind source keys that no target takes, with the reason
 * @param refusals why the migration may not be applied (empty when it may)
 */
public record MigrationPlan(
    String source,
    OptionalLong sourceEpoch,
    List<Target> targets,
    List<LeftBehind> leftBehind,
    List<String> refusals) {

  public MigrationPlan {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(sourceEpoch, "sourceEpoch");
    targets = List.copyOf(targets);
    leftBehind = List.copyOf(leftBehind);
    refusals = List.copyOf(refusals);
  }

  /** True when applying the plan writes nothing: every target is migrated already or in place. */
  public boolean settled() {
    return targets.stream().noneMatch(Target::writes);
  }

  /** How many checkpoints the plan moves or converts. */
  public int moved() {
    return targets.stream().mapToInt(t -> t.written().size()).sum();
  }

  /**
   * One document the positions go to.
   *
   * @param org the org, or empty for a single-org configuration (whose document is the source)
   * @param location where the document lives
   * @param migratedFrom the legacy location its {@code __migrated_from__} names, when the org was
   *     migrated already (then nothing is written to it)
   * @param moves every source checkpoint this document receives (or, in place, keeps)
   * @param kept keys the document already holds, which the migration leaves as they are
   * @param epoch the {@code __fence_epoch__} to write, when it must rise
   */
  public record Target(
      Optional<String> org,
      String location,
      Optional<String> migratedFrom,
      List<Move> moves,
      List<String> kept,
      OptionalLong epoch) {

    public Target {
      Objects.requireNonNull(org, "org");
      Objects.requireNonNull(location, "location");
      Objects.requireNonNull(migratedFrom, "migratedFrom");
      moves = List.copyOf(moves);
      kept = List.copyOf(kept);
      Objects.requireNonNull(epoch, "epoch");
    }

    /** True for the single-org document, which is the source itself. */
    public boolean inPlace() {
      return org.isEmpty();
    }

    /** The moves that write a value: all of them into an org's document, conversions in place. */
    public List<Move> written() {
      if (migratedFrom.isPresent()) {
        return List.of();
      }
      return inPlace() ? moves.stream().filter(m -> m.kind() == Kind.CONVERTED).toList() : moves;
    }

    /** True when applying writes to this document. */
    public boolean writes() {
      return migratedFrom.isEmpty() && (!inPlace() || !written().isEmpty());
    }
  }

  /** How a value is carried. */
  public enum Kind {
    /** As it is. */
    AS_IS,
    /** Converted to the form sf2loki's source reads. */
    CONVERTED,
    /** As it is, though no source reads its namespace. */
    UNKNOWN_NAMESPACE,
    /**
     * As it is, though its source cannot read it (restarts from its lookback): on request only,
     * otherwise the plan refuses.
     */
    INVALID
  }

  /**
   * One checkpoint carried.
   *
   * @param from its key in the source
   * @param to its key in the target
   * @param value the value written
   * @param kind how it is carried
   * @param note the conversion or problem, when there is one
   */
  public record Move(String from, String to, String value, Kind kind, Optional<String> note) {
    public Move {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(note, "note");
    }
  }

  /**
   * A source key no target takes.
   *
   * @param key the key
   * @param reason why it stays behind
   */
  public record LeftBehind(String key, String reason) {
    public LeftBehind {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
