package io.sf2loki.engine.shard;

import io.sf2loki.config.orgs.Shard;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.engine.shard.CheckpointCarrier.Carried;
import io.sf2loki.engine.shard.MigrationPlan.Kind;
import io.sf2loki.engine.shard.MigrationPlan.LeftBehind;
import io.sf2loki.engine.shard.MigrationPlan.Move;
import io.sf2loki.engine.shard.MigrationPlan.Target;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.CorruptStateException;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.StoreEnvironment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Turns the Python sf2loki's checkpoint document (the configured, unsuffixed one; single- or
 * multi-org) into sf2loki's documents ahead of the first start, eagerly and as one operator step:
 * what {@link OrgKeyView} does lazily at an org's first commit, plus the fence epoch, value
 * conversions and a report of what stays behind.
 *
 * <ul>
 *   <li>With {@code orgs}, each org's {@code org=<name>:} keys (for the first org also the
 *       unprefixed keys without a prefixed twin, the Python fallback rule) go into the org's own
 *       document, with {@code __migrated_from__} naming the source, in one write per org. Keys the
 *       org's document already holds are kept. An org whose document records {@code
 *       __migrated_from__} is migrated already and not written again, so a second run changes
 *       nothing.
 *   <li>The fence epoch rises above the source's: each org's document gets {@code __fence_epoch__ =
 *       source epoch + 1} (unless it holds a higher one), so a writer still holding the source's
 *       epoch (equal epochs pass the fence) can commit to none of them.
 *   <li>A single-org configuration reads the Python document as it is: only values its sources
 *       could not read as they are (converted ones) are rewritten, in place.
 *   <li>The source document is only read (in place: only converted values are rewritten).
 * </ul>
 *
 * <p>Not thread-safe: one operator command.
 */
public final class StateMigration implements AutoCloseable {

  private static final String EPOCH = CheckpointToken.RESERVED_EPOCH_KEY;
  private static final String MIGRATED = CheckpointToken.RESERVED_MIGRATED_KEY;
  private static final String ANY_ORG = "org=";

  private final Shards shards;
  private final CheckpointCarrier carrier;
  private final String sourceLocation;
  private final CheckpointStore source;
  private final Map<String, CheckpointStore> targets = new LinkedHashMap<>();

  private StateMigration(Shards shards, StoreEnvironment environment, CheckpointCarrier carrier) {
    this.shards = shards;
    this.carrier = carrier;
    CheckpointStoreProvider.Factory legacy =
        shards.first().org().map(Shard.Org::legacyDocument).orElse(shards.first().config().store());
    this.sourceLocation = legacy.location();
    this.source = legacy.create(environment);
    if (shards.multiOrg()) {
      for (Shard shard : shards.all()) {
        targets.put(shard.org().orElseThrow().name(), shard.config().store().create(environment));
      }
    }
  }

  /**
   * Opens the source and target stores (no I/O yet).
   *
   * @param environment how the stores are created: {@code singleInstance} makes each take its
   *     single-instance guard (the file store's lock) at its first read, so a daemon still holding
   *     one, a Python one under {@code noop} included, makes the migration fail
   */
  public static StateMigration open(
      Shards shards, StoreEnvironment environment, CheckpointCarrier carrier) {
    return new StateMigration(shards, environment, carrier);
  }

  /**
   * Reads the source and every target and works out what moves where. Writes nothing.
   *
   * @param keepInvalid carry values their source cannot read as they are (reported), instead of
   *     refusing
   * @throws CorruptStateException a document cannot be parsed (it names the document)
   */
  public MigrationPlan plan(boolean keepInvalid) {
    Map<String, String> old = source.loadAll();
    OptionalLong sourceEpoch = epoch(old, sourceLocation);
    List<String> refusals = new ArrayList<>();
    Set<String> claimed = new HashSet<>();
    List<Target> planned = new ArrayList<>();
    if (shards.multiOrg()) {
      for (Shard shard : shards.all()) {
        planned.add(
            orgTarget(shard.org().orElseThrow(), old, sourceEpoch, keepInvalid, claimed, refusals));
      }
    } else {
      planned.add(inPlace(old, keepInvalid, claimed, refusals));
    }
    List<LeftBehind> left = leftBehind(old, claimed);
    if (!shards.multiOrg()) {
      Set<String> orgs = new LinkedHashSet<>();
      old.keySet().stream()
          .filter(k -> k.startsWith(ANY_ORG))
          .map(StateMigration::orgOf)
          .flatMap(Optional::stream)
          .forEach(orgs::add);
      if (!orgs.isEmpty()) {
        refusals.add(
            sourceLocation
                + " holds the positions of org(s) "
                + String.join(", ", orgs)
                + " (org=<name>: keys), which a single-org configuration does not read: list"
                + " those orgs under orgs, with the same names (sf2loki config migrate converts a"
                + " multi-org Python file), then run this command again");
      }
    }
    return new MigrationPlan(sourceLocation, sourceEpoch, planned, left, refusals);
  }

  /**
   * Writes {@code plan}: one write per org document that is not migrated yet (its positions, the
   * marker, the raised epoch), or the conversions in place.
   *
   * @throws MigrationRefusedException the plan has refusals; nothing was written
   */
  public void apply(MigrationPlan plan) {
    if (!plan.refusals().isEmpty()) {
      throw new MigrationRefusedException(plan.source(), plan.refusals());
    }
    for (Target target : plan.targets()) {
      if (!target.writes()) {
        continue;
      }
      Map<String, String> write = new LinkedHashMap<>();
      target.written().forEach(m -> write.put(m.to(), m.value()));
      if (target.inPlace()) {
        source.commit(write, Fence.NONE);
      } else {
        write.put(MIGRATED, plan.source());
        target.epoch().ifPresent(e -> write.put(EPOCH, Long.toString(e)));
        targets.get(target.org().orElseThrow()).commit(write, Fence.NONE);
      }
    }
  }

  private Target orgTarget(
      Shard.Org org,
      Map<String, String> old,
      OptionalLong sourceEpoch,
      boolean keepInvalid,
      Set<String> claimed,
      List<String> refusals) {
    CheckpointStore store = targets.get(org.name());
    Map<String, String> own = store.loadAll();
    String prefix = org.keyPrefix();
    Map<String, String> candidates = new LinkedHashMap<>(); // source key -> target key
    old.keySet().stream().filter(k -> k.startsWith(prefix)).forEach(k -> candidates.put(k, k));
    if (org.first()) {
      old.keySet().stream()
          .filter(k -> !CheckpointToken.isReserved(k) && !k.startsWith(ANY_ORG))
          .filter(k -> !old.containsKey(prefix + k))
          .forEach(k -> candidates.put(k, prefix + k));
    }
    claimed.addAll(candidates.keySet());
    List<String> ownKeys =
        own.keySet().stream().filter(k -> !CheckpointToken.isReserved(k)).toList();
    if (own.containsKey(MIGRATED)) {
      return new Target(
          Optional.of(org.name()),
          store.location(),
          Optional.of(own.get(MIGRATED)),
          List.of(),
          ownKeys,
          OptionalLong.empty());
    }
    List<Move> moves = new ArrayList<>();
    List<String> kept = new ArrayList<>();
    candidates.forEach(
        (from, to) -> {
          if (own.containsKey(to)) {
            kept.add(to);
            return;
          }
          moves.add(
              carried(
                  from, to, to.substring(prefix.length()), old.get(from), keepInvalid, refusals));
        });
    OptionalLong raise = OptionalLong.empty();
    if (sourceEpoch.isPresent()) {
      long wanted = sourceEpoch.getAsLong() + 1;
      OptionalLong current = epoch(own, store.location());
      if (current.isEmpty() || current.getAsLong() < wanted) {
        raise = OptionalLong.of(wanted);
      }
    }
    return new Target(
        Optional.of(org.name()), store.location(), Optional.empty(), moves, kept, raise);
  }

  private Target inPlace(
      Map<String, String> old, boolean keepInvalid, Set<String> claimed, List<String> refusals) {
    List<Move> moves = new ArrayList<>();
    old.forEach(
        (key, value) -> {
          if (CheckpointToken.isReserved(key)) {
            claimed.add(key);
          } else if (!key.startsWith(ANY_ORG)) {
            claimed.add(key);
            moves.add(carried(key, key, key, value, keepInvalid, refusals));
          }
        });
    return new Target(
        Optional.empty(), sourceLocation, Optional.empty(), moves, List.of(), OptionalLong.empty());
  }

  /**
   * The move of one value; one its source cannot read is also a refusal unless {@code keepInvalid}.
   */
  private Move carried(
      String from,
      String to,
      String bare,
      String value,
      boolean keepInvalid,
      List<String> refusals) {
    Carried carried = carrier.carry(bare, value);
    if (carried instanceof Carried.As as) {
      return new Move(
          from,
          to,
          as.value(),
          as.conversion().isPresent() ? Kind.CONVERTED : Kind.AS_IS,
          as.conversion());
    }
    if (carried instanceof Carried.Invalid invalid) {
      if (keepInvalid) {
        return new Move(
            from,
            to,
            value,
            Kind.INVALID,
            Optional.of(invalid.problem() + "; its source restarts from its lookback"));
      }
      refusals.add(
          from
              + " = "
              + value
              + ": "
              + invalid.problem()
              + " (its source would restart from its lookback; pass --keep-invalid to carry it"
              + " anyway, or repair it after the migration with state set)");
      return new Move(from, to, value, Kind.INVALID, Optional.of("refused: " + invalid.problem()));
    }
    return new Move(
        from,
        to,
        value,
        Kind.UNKNOWN_NAMESPACE,
        Optional.of("no sf2loki source reads this namespace"));
  }

  private List<LeftBehind> leftBehind(Map<String, String> old, Set<String> claimed) {
    List<LeftBehind> left = new ArrayList<>();
    List<String> orgs = shards.orgNames();
    old.keySet().stream()
        .filter(k -> !claimed.contains(k) && !EPOCH.equals(k))
        .sorted()
        .forEach(
            key -> {
              String reason;
              if (CheckpointToken.isReserved(key)) {
                reason = "reserved key of the document's last writer, not a checkpoint";
              } else if (key.startsWith(ANY_ORG)) {
                reason =
                    orgOf(key)
                        .map(
                            o ->
                                orgs.isEmpty()
                                    ? "org " + o + ": a single-org configuration has no orgs"
                                    : "org "
                                        + o
                                        + " is not configured (orgs: "
                                        + String.join(", ", orgs)
                                        + ")")
                        .orElse("not a checkpoint key (org=<name>:<key>)");
              } else {
                reason =
                    "the first org ("
                        + (orgs.isEmpty() ? "" : orgs.get(0))
                        + ") has its own org="
                        + (orgs.isEmpty() ? "" : orgs.get(0))
                        + ":"
                        + key
                        + ", which wins, as in the Python sf2loki";
              }
              left.add(new LeftBehind(key, reason));
            });
    return left;
  }

  private static Optional<String> orgOf(String key) {
    int colon = key.indexOf(':');
    return colon > ANY_ORG.length()
        ? Optional.of(key.substring(ANY_ORG.length(), colon))
        : Optional.empty();
  }

  private static OptionalLong epoch(Map<String, String> document, String location) {
    String value = document.get(EPOCH);
    if (value == null) {
      return OptionalLong.empty();
    }
    if (!value.matches("[0-9]{1,18}")) {
      throw new CorruptStateException(
          location + ": " + EPOCH + " is '" + value + "', not a non-negative integer");
    }
    return OptionalLong.of(Long.parseLong(value));
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    for (CheckpointStore store : concat()) {
      try {
        store.close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private List<CheckpointStore> concat() {
    List<CheckpointStore> all = new ArrayList<>(targets.values());
    all.add(source);
    return all;
  }
}
