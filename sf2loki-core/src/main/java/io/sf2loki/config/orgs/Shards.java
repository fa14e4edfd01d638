package io.sf2loki.config.orgs;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigList;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.config.LoadedConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.TopologyWarnings;
import io.sf2loki.registry.Providers;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.CoordinatorProvider;
import io.sf2loki.spi.ShardBalance;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A deployment's shards: one for a single-org configuration (exactly what {@link
 * Sf2LokiConfig#bind} makes of it), one per org with {@code orgs}. Binding performs no network or
 * store I/O and reports every problem at once, those of an org under its path ({@code
 * orgs[1].salesforce.client_id}).
 *
 * @param all the shards in the configured order; never empty
 * @param coordinator the top-level {@code coordinate} section's factory (the shards' own name
 *     per-org leases), which makes the shard balance and names its roster
 * @param shardSlack {@code coordinate.shard_slack}
 */
public record Shards(List<Shard> all, CoordinatorProvider.Factory coordinator, int shardSlack) {

  /** The most {@code coordinate.shard_slack} accepts. */
  static final int MAX_SLACK = 10_000;

  public Shards {
    all = List.copyOf(all);
    if (all.isEmpty()) {
      throw new IllegalArgumentException("a deployment has at least one shard");
    }
    Objects.requireNonNull(coordinator, "coordinator");
    if (shardSlack < 0) {
      throw new IllegalArgumentException("shardSlack must be >= 0: " + shardSlack);
    }
  }

  /** Shards balanced without slack, under the first shard's coordinator factory. */
  public Shards(List<Shard> all) {
    this(all, all.isEmpty() ? null : all.get(0).config().coordinator(), 0);
  }

  /**
   * The process's shard quota, shared by every shard's coordinator: with two or more orgs the
   * coordinator's ({@link CoordinatorProvider.Factory#shardBalance}, a roster for {@code
   * file_lease} and {@code k8s_lease}); {@link ShardBalance#UNLIMITED} for one shard. No I/O.
   *
   * @param environment the process's clock, ticker, untagged meter registry, variables, threads
   */
  public ShardBalance balance(CoordinatorEnvironment environment) {
    if (all.size() < 2) {
      return ShardBalance.UNLIMITED;
    }
    return coordinator.shardBalance(orgNames(), shardSlack, environment);
  }

  /**
   * Binds {@code loaded} with the providers visible to {@code classLoader}.
   *
   * @throws ConfigInvalidException with every problem found
   */
  public static Shards bind(LoadedConfig loaded, ClassLoader classLoader) {
    return bind(loaded, Providers.discover(classLoader));
  }

  /**
   * Binds {@code loaded}: a single-org configuration as one shard, each element of {@code orgs} as
   * a shard of its own.
   *
   * @throws ConfigInvalidException with every problem found
   */
  public static Shards bind(LoadedConfig loaded, Providers providers) {
    if (!Sf2LokiConfig.isMultiOrg(loaded)) {
      return new Shards(List.of(Shard.single(Sf2LokiConfig.bind(loaded, providers))));
    }
    Config base = loaded.resolved();
    List<ConfigProblem> problems = new ArrayList<>();
    sharedProblems(loaded.reader(), problems);
    List<OrgEntry> entries =
        new OrgEntries(loaded.schema(), problems).read((ConfigList) base.getValue("orgs"));
    OrgDerivation derivation =
        OrgDerivation.of(
            base, providers.stores().types(), providers.coordinators().types(), entries, problems);
    Optional<CheckpointStoreProvider.Factory> legacy = legacyDocument(loaded, providers);
    ConfigReader coordinate = loaded.reader().section("coordinate");
    int slack = coordinate.intInRange("shard_slack", 0, MAX_SLACK);
    problems.addAll(coordinate.problems());
    Optional<CoordinatorProvider.Factory> shared =
        providers
            .coordinators()
            .select(coordinate, "type")
            .map(p -> p.configure(coordinate.section(p.type())));
    List<Shard> shards = new ArrayList<>();
    for (OrgEntry entry : entries) {
      try {
        Sf2LokiConfig config =
            Sf2LokiConfig.bind(
                new LoadedConfig(derivation.derive(entry), loaded.schema()), providers);
        legacy.ifPresent(
            document ->
                shards.add(
                    new Shard(
                        Optional.of(new Shard.Org(entry.name(), entry.index() == 0, document)),
                        config)));
      } catch (ConfigInvalidException e) {
        // identical shared-section problems of several orgs are reported once (the set below)
        problems.addAll(OrgProblems.of(e.problems(), entry.path(), ownSinkKeys(entry)));
      }
    }
    if (!problems.isEmpty() || shared.isEmpty() || coordinate.hasProblems()) {
      problems.addAll(coordinate.problems());
      throw new ConfigInvalidException(List.copyOf(new LinkedHashSet<>(problems)));
    }
    return new Shards(shards, shared.get(), slack);
  }

  /** True with {@code orgs}: every shard runs one org. */
  public boolean multiOrg() {
    return all.get(0).org().isPresent();
  }

  /** The orgs' names in the configured order; empty for a single-org configuration. */
  public List<String> orgNames() {
    return all.stream().flatMap(s -> s.org().stream()).map(Shard.Org::name).toList();
  }

  /**
   * The topology warnings of every shard ({@link TopologyWarnings}), each once: they name the
   * shard's own document and lease.
   */
  public List<String> topologyWarnings() {
    return all.stream().flatMap(s -> TopologyWarnings.of(s.config()).stream()).distinct().toList();
  }

  /** The first shard, whose configuration carries the shared sections like every other one's. */
  public Shard first() {
    return all.get(0);
  }

  /**
   * The shard an operator command addresses: a single-org configuration's one shard without {@code
   * --org}; with {@code orgs}, the org named.
   *
   * @throws ConfigInvalidException when {@code org} is missing with {@code orgs}, names no org, or
   *     is given for a single-org configuration
   */
  public Shard select(Optional<String> org) {
    if (!multiOrg()) {
      if (org.isPresent()) {
        throw ConfigInvalidException.of(
            "orgs", "--org " + org.get() + ": the configuration has no orgs (a single org)");
      }
      return first();
    }
    if (org.isEmpty()) {
      throw ConfigInvalidException.of(
          "orgs",
          "the configuration lists several orgs ("
              + String.join(", ", orgNames())
              + "): pass --org NAME");
    }
    return all.stream()
        .filter(s -> s.org().orElseThrow().name().equals(org.get()))
        .findFirst()
        .orElseThrow(
            () ->
                ConfigInvalidException.of(
                    "orgs",
                    "--org "
                        + org.get()
                        + ": no org of that name (there are: "
                        + String.join(", ", orgNames())
                        + ")"));
  }

  /** What a multi-org file may not set at the top level. */
  private static void sharedProblems(ConfigReader root, List<ConfigProblem> problems) {
    if (root.isSetByUser("salesforce.org_id")) {
      problems.add(
          new ConfigProblem(
              "salesforce.org_id",
              "salesforce.org_id names one org: with orgs, set it per org"
                  + " (orgs[].salesforce.org_id)"));
    }
    for (String label : List.of("org", "sf_org_id")) {
      if (root.isSetByUser("sink.loki.labels." + label)) {
        problems.add(
            new ConfigProblem(
                "sink.loki.labels." + label,
                "sink.loki.labels."
                    + label
                    + " cannot be shared by several orgs: "
                    + (label.equals("org")
                        ? "each org's entries carry org = its name"
                        : "set it per org (orgs[].sink.loki.labels.sf_org_id), or leave it to the"
                            + " login")));
      }
    }
  }

  /**
   * The configured, unsuffixed document's store factory, bound apart from the shards (its problems
   * are the first shard's too); empty when the store section does not bind.
   */
  private static Optional<CheckpointStoreProvider.Factory> legacyDocument(
      LoadedConfig loaded, Providers providers) {
    ConfigReader state = loaded.reader().section("state");
    Optional<CheckpointStoreProvider.Factory> factory =
        providers.stores().select(state, "store").map(p -> p.configure(state.section(p.type())));
    return state.hasProblems() ? Optional.empty() : factory;
  }

  private static Set<String> ownSinkKeys(OrgEntry entry) {
    Set<String> keys = new java.util.HashSet<>();
    for (String key : List.of("sink.loki.tenant_id", "sink.loki.labels")) {
      if (entry.value(key).isPresent()) {
        keys.add(key);
      }
    }
    return keys;
  }
}
