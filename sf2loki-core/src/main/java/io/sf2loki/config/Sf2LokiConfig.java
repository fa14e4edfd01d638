package io.sf2loki.config;

import static com.typesafe.config.ConfigValueType.LIST;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigList;
import io.sf2loki.registry.Providers;
import io.sf2loki.shape.OverlapGuard;
import io.sf2loki.spi.CategoryOwnership;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.CoordinatorProvider;
import io.sf2loki.spi.SinkProvider;
import io.sf2loki.spi.SourceProvider;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The whole validated configuration: every section bound, the store, coordinator and enabled
 * sources resolved through their providers. Building one performs no network or store I/O; it is
 * what {@code --check} and {@code config check} prove.
 *
 * @param salesforce the {@code salesforce} section
 * @param sinkType the selected {@code sink.type}
 * @param sink the bound sink factory
 * @param lanes the lanes' batch, queue and retry bounds ({@code sink.loki.batch}, {@code retry})
 * @param egress the daily byte budget and the lanes' rate caps ({@code sink.loki.egress})
 * @param service the {@code service} section
 * @param storeType the selected {@code state.store}
 * @param store the bound store factory
 * @param coordinatorType the selected {@code coordinate.type}
 * @param coordinator the bound coordinator factory
 * @param sources the bound factories of the enabled source families, by type
 * @param categoryOwnership which source owns each event category (the overlap guard's verdict)
 * @param loaded the loaded configuration the records were bound from
 */
public record Sf2LokiConfig(
    SalesforceConfig salesforce,
    String sinkType,
    SinkProvider.Factory sink,
    LaneConfig lanes,
    EgressConfig egress,
    ServiceConfig service,
    String storeType,
    CheckpointStoreProvider.Factory store,
    Duration streamingCommitInterval,
    String coordinatorType,
    CoordinatorProvider.Factory coordinator,
    Map<String, SourceProvider.Factory> sources,
    CategoryOwnership categoryOwnership,
    LoadedConfig loaded) {

  public Sf2LokiConfig {
    Objects.requireNonNull(salesforce, "salesforce");
    Objects.requireNonNull(sink, "sink");
    Objects.requireNonNull(lanes, "lanes");
    Objects.requireNonNull(egress, "egress");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(streamingCommitInterval, "streamingCommitInterval");
    Objects.requireNonNull(coordinator, "coordinator");
    sources = Map.copyOf(sources);
    Objects.requireNonNull(loaded, "loaded");
  }

  /**
   * True when {@code orgs} lists at least one org: each org is then a shard of its own, bound to a
   * configuration of its own by {@code io.sf2loki.config.orgs.Shards}, and this record describes
   * one shard.
   */
  public static boolean isMultiOrg(LoadedConfig loaded) {
    Config c = loaded.resolved();
    return c.hasPath("orgs") && c.getValue("orgs") instanceof ConfigList list && !list.isEmpty();
  }

  /** True unless the coordinator is {@code noop}: another replica may be leading. */
  public boolean isCoordinated() {
    return !"noop".equals(coordinatorType);
  }

  /**
   * Binds every section and resolves the providers visible to {@code classLoader}.
   *
   * @throws ConfigInvalidException with every problem found, each with its key path
   */
  public static Sf2LokiConfig bind(LoadedConfig loaded, ClassLoader classLoader) {
    return bind(loaded, Providers.discover(classLoader));
  }

  /**
   * Binds every section and resolves the store, coordinator and sources through {@code providers}.
   *
   * @throws ConfigInvalidException with every problem found, each with its key path
   */
  public static Sf2LokiConfig bind(LoadedConfig loaded, Providers providers) {
    if (isMultiOrg(loaded)) {
      throw ConfigInvalidException.of(
          "orgs",
          "orgs lists "
              + loaded.resolved().getList("orgs").size()
              + " org(s), and this command handles a single-org configuration only; the daemon,"
              + " config check, doctor, lease show and state --org handle multi-org configurations");
    }
    ConfigReader root = loaded.reader();
    if (root.isSet("orgs") && loaded.resolved().getValue("orgs").valueType() != LIST) {
      root.problem("orgs", "orgs must be a list of objects");
    }
    SalesforceConfig salesforce = SalesforceConfig.bind(root.section("salesforce"));
    ConfigReader sinkSection = root.section("sink");
    Optional<SinkProvider> sinkProvider = providers.sinks().select(sinkSection, "type");
    SinkProvider.Factory sink =
        sinkProvider.map(p -> p.configure(sinkSection.section(p.type()))).orElse(null);
    LaneConfig lanes = LaneConfig.bind(root.section("sink.loki"));
    EgressConfig egress = EgressConfig.bind(root.section("sink.loki"));
    ServiceConfig service = ServiceConfig.bind(root.section("service"));

    ConfigReader state = root.section("state");
    Optional<CheckpointStoreProvider> storeProvider = providers.stores().select(state, "store");
    CheckpointStoreProvider.Factory store =
        storeProvider.map(p -> p.configure(state.section(p.type()))).orElse(null);
    Duration streamingCommitInterval = state.duration("streaming_commit_interval");
    if (streamingCommitInterval.isNegative()) {
      state.problem(
          "streaming_commit_interval", "state.streaming_commit_interval must not be negative");
    }

    ConfigReader coordinate = root.section("coordinate");
    Optional<CoordinatorProvider> coordinatorProvider =
        providers.coordinators().select(coordinate, "type");
    CoordinatorProvider.Factory coordinator =
        coordinatorProvider.map(p -> p.configure(coordinate.section(p.type()))).orElse(null);

    Map<String, SourceProvider.Factory> sources = new LinkedHashMap<>();
    ConfigReader sourcesSection = root.section("sources");
    for (SourceProvider provider : providers.sources().all()) {
      ConfigReader section = sourcesSection.section(provider.type());
      if (section.isSet("enabled") && section.bool("enabled")) {
        sources.put(provider.type(), provider.configure(section));
      }
    }
    // The same event category on two sources doubles the Loki bill; refuse unless allowed.
    CategoryOwnership ownership = OverlapGuard.check(sources, sourcesSection);
    StreamLabelBudget.check(root, sink, sources);
    root.throwIfInvalid();
    return new Sf2LokiConfig(
        salesforce,
        sinkProvider.orElseThrow().type(),
        sink,
        lanes,
        egress,
        service,
        storeProvider.orElseThrow().type(),
        store,
        streamingCommitInterval,
        coordinatorProvider.orElseThrow().type(),
        coordinator,
        sources,
        ownership,
        loaded);
  }
}
