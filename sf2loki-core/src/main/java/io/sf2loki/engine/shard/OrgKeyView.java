package io.sf2loki.engine.shard;

import io.sf2loki.config.orgs.Shard;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.Term;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One org's view of its own checkpoint document, compatible with the Python sf2loki's multi-org
 * keys: every key is {@code org=<name>:<key>} in the document and {@code <key>} in the view
 * (prefixed on commit and delete, stripped on load; keys of other orgs and unprefixed keys are not
 * seen). The reserved keys ({@code __fence_epoch__}, {@code __writer__}, {@value #MIGRATED}) are
 * the document's and pass through unprefixed, so the store's fencing applies to the org's document
 * unchanged.
 *
 * <p><b>Migration.</b> Until the document records {@value #MIGRATED}, a load also reads the legacy
 * document ({@link LegacyDocument}) and fills in what the org's document lacks: its {@code
 * org=<name>:} keys and, for the first configured org only, the unprefixed keys that have no
 * prefixed twin (a single-org deployment's positions). The first commit or delete through the view
 * writes those inherited positions into the org's document together with {@value #MIGRATED} (the
 * legacy location), in one write; from then on the legacy document is never read again, and a key
 * deleted through the view stays deleted.
 *
 * <p>Thread-safe: operations are serialised on the view, as the store serialises its own.
 */
public class OrgKeyView implements CheckpointStore {

  /** The reserved key recording that the legacy positions were taken over. */
  public static final String MIGRATED = CheckpointToken.RESERVED_MIGRATED_KEY;

  private static final String ANY_ORG = "org=";

  private final CheckpointStore document;
  private final String prefix;
  private final boolean first;
  private final LegacyDocument legacy;
  private Boolean migrated; // null: not known since the last reset
  private Map<String, String> inherited = Map.of();

  OrgKeyView(CheckpointStore document, Shard.Org org, LegacyDocument legacy) {
    this.document = Objects.requireNonNull(document, "document");
    this.prefix = org.keyPrefix();
    this.first = org.first();
    this.legacy = Objects.requireNonNull(legacy, "legacy");
  }

  /**
   * The view of {@code org} over {@code document}, the org's own document; it keeps the store's
   * {@link EpochFloor} and {@link EpochClaim} capabilities when the store has both.
   */
  public static OrgKeyView of(CheckpointStore document, Shard.Org org, LegacyDocument legacy) {
    return document instanceof EpochFloor && document instanceof EpochClaim
        ? new Fenced(document, org, legacy)
        : new OrgKeyView(document, org, legacy);
  }

  @Override
  public synchronized Map<String, String> loadAll() {
    Map<String, String> own = document.loadAll();
    Map<String, String> view = new LinkedHashMap<>();
    own.forEach(
        (key, value) -> {
          if (CheckpointToken.isReserved(key)) {
            view.put(key, value);
          } else if (key.startsWith(prefix)) {
            view.put(key.substring(prefix.length()), value);
          }
        });
    migrated = own.containsKey(MIGRATED);
    inherited = migrated ? Map.of() : inheritable(legacy.read(), view);
    inherited.forEach(view::putIfAbsent);
    return view;
  }

  @Override
  public Optional<String> load(String key) {
    return Optional.ofNullable(loadAll().get(key));
  }

  @Override
  public synchronized void commit(Map<String, String> updates, Fence fence) {
    Map<String, String> write = takeOver(Set.of());
    updates.forEach((key, value) -> write.put(stored(key), value));
    document.commit(write, fence);
    settled();
  }

  @Override
  public synchronized void delete(Set<String> keys, Fence fence) {
    Map<String, String> takeOver = takeOver(keys);
    if (!takeOver.isEmpty()) {
      document.commit(takeOver, fence);
      settled();
    }
    document.delete(keys.stream().map(this::stored).collect(Collectors.toSet()), fence);
  }

  /** Forgets what was learnt of the document, as the store forgets its cache. */
  @Override
  public synchronized void reset() {
    migrated = null;
    inherited = Map.of();
    document.reset();
  }

  @Override
  public String location() {
    return document.location();
  }

  @Override
  public void close() {
    document.close();
  }

  /**
   * What the next write must carry to take the legacy positions over (none once migrated): the
   * inherited positions but {@code except}, and the marker.
   */
  private Map<String, String> takeOver(Set<String> except) {
    if (migrated == null) {
      loadAll();
    }
    Map<String, String> write = new LinkedHashMap<>();
    if (!migrated) {
      inherited.forEach(
          (key, value) -> {
            if (!except.contains(key)) {
              write.put(prefix + key, value);
            }
          });
      write.put(MIGRATED, legacy.location());
    }
    return write;
  }

  private void settled() {
    migrated = true;
    inherited = Map.of();
  }

  private String stored(String key) {
    return CheckpointToken.isReserved(key) ? key : prefix + key;
  }

  /**
   * The legacy positions this org inherits, by view key: its prefixed keys, then (first org only)
   * the unprefixed ones without a prefixed twin; none that the org's document already has.
   */
  private Map<String, String> inheritable(Map<String, String> old, Map<String, String> present) {
    Map<String, String> out = new LinkedHashMap<>();
    old.forEach(
        (key, value) -> {
          if (key.startsWith(prefix)) {
            out.put(key.substring(prefix.length()), value);
          }
        });
    if (first) {
      old.forEach(
          (key, value) -> {
            if (!CheckpointToken.isReserved(key) && !key.startsWith(ANY_ORG)) {
              out.putIfAbsent(key, value);
            }
          });
    }
    out.keySet().removeAll(present.keySet());
    return out;
  }

  /** The view over a store that records epochs: the epoch is the org's document's. */
  private static final class Fenced extends OrgKeyView implements EpochFloor, EpochClaim {
    private final CheckpointStore document;

    Fenced(CheckpointStore document, Shard.Org org, LegacyDocument legacy) {
      super(document, org, legacy);
      this.document = document;
    }

    @Override
    public OptionalLong persistedEpoch() {
      return ((EpochFloor) document).persistedEpoch();
    }

    @Override
    public void claimEpoch(Term term) {
      ((EpochClaim) document).claimEpoch(term);
    }
  }
}
