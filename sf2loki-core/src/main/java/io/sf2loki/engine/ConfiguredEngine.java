package io.sf2loki.engine;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.config.ServiceConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.engine.shard.LegacyDocument;
import io.sf2loki.engine.shard.OrgKeyView;
import io.sf2loki.engine.shard.OrgMeters;
import io.sf2loki.engine.shard.OrgThreads;
import io.sf2loki.model.StreamLabels;
import io.sf2loki.shape.PromotedLabels;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.OrgIdentity;
import io.sf2loki.spi.OrgSession;
import io.sf2loki.spi.OrgSessions;
import io.sf2loki.spi.ShardBalance;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.SinkEnvironment;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.spi.SourceProvider;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The composition root: builds an {@link Engine} from a validated configuration — the store, the
 * coordinator (given the store's {@link EpochFloor} when it has one), the Loki sink, the org's
 * {@link OrgSession} (one token provider for every source of the org, logged in by the engine
 * before its first campaign) and the enabled sources — through their providers. Creating it
 * performs no network or store I/O.
 */
public final class ConfiguredEngine {

  private ConfiguredEngine() {}

  /**
   * Wires an engine; time, jitter, the meter registry and the process environment are the
   * launcher's.
   *
   * @param variables the process environment ({@code System.getenv()}), which the coordinators read
   *     for default holder identities and the in-cluster check
   * @throws UncheckedIOException when the sink's TLS material cannot be loaded
   */
  public static Engine create(
      Sf2LokiConfig config, EngineEnvironment environment, Map<String, String> variables) {
    return create(config, environment, variables, Map.of());
  }

  /**
   * Wires an engine whose entries carry {@code runLabels} besides the deployment labels: a
   * launcher's mark on what it ships, such as backfill's {@code backfill="true"}.
   *
   * @param runLabels stream labels of this run; each name must be in {@link StreamLabels#ALLOWLIST}
   *     and not already a deployment label
   * @throws IllegalArgumentException when a run label is not allowed
   */
  public static Engine create(
      Sf2LokiConfig config,
      EngineEnvironment environment,
      Map<String, String> variables,
      Map<String, String> runLabels) {
    return compose(
        config,
        environment,
        variables,
        runLabels,
        (document, stores) -> document,
        coordination -> coordination);
  }

  /**
   * Wires the engine of one shard: a single-org shard exactly as {@link #create(Sf2LokiConfig,
   * EngineEnvironment, Map)} does; an org's shard with its meters tagged {@code org=<name>} ({@link
   * OrgMeters}), its threads' log lines carrying the org ({@link OrgThreads}) and its checkpoints
   * seen through the org's {@link OrgKeyView} of its own document, whose epoch fences it.
   */
  public static Engine create(
      Shard shard, EngineEnvironment environment, Map<String, String> variables) {
    return create(shard, environment, variables, ShardBalance.UNLIMITED);
  }

  /**
   * Wires the engine of one shard whose coordinator counts against the process's {@code balance}
   * (one object for every shard of the process, see {@link io.sf2loki.config.orgs.Shards#balance}).
   */
  public static Engine create(
      Shard shard,
      EngineEnvironment environment,
      Map<String, String> variables,
      ShardBalance balance) {
    if (shard.org().isEmpty()) {
      return create(shard.config(), environment, variables);
    }
    Shard.Org org = shard.org().get();
    EngineEnvironment own = ofOrg(environment, org);
    return compose(
        shard.config(),
        own,
        variables,
        Map.of(),
        (document, stores) ->
            OrgKeyView.of(document, org, new LegacyDocument(org.legacyDocument(), stores)),
        coordination -> coordination.withShard(org.name(), balance));
  }

  /**
   * The sources of {@code shard} as {@link #create(Shard, EngineEnvironment, Map, ShardBalance)}
   * composes them (the same labels, session, meters tagged with the org and org threads), without
   * the store, the coordinator or the sink: for a launcher whose framework keeps the positions and
   * delivers the entries itself. No network I/O.
   */
  public static ShardSources sources(Shard shard, EngineEnvironment environment) {
    EngineEnvironment own = shard.org().map(org -> ofOrg(environment, org)).orElse(environment);
    return sources(shard.config(), own, deploymentLabels(shard.config()));
  }

  /**
   * The sink of {@code config} as the engine creates it (the promoted labels of its sources kept):
   * for a launcher that delivers entries it did not read itself (the Kafka Connect sink task).
   *
   * @throws UncheckedIOException when the sink's TLS material cannot be loaded
   */
  public static Sink sink(Sf2LokiConfig config, EngineEnvironment environment) {
    try {
      return config
          .sink()
          .create(
              new SinkEnvironment(
                  environment.clock(),
                  environment.metrics(),
                  environment.random(),
                  promotedLabels(config)));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot set up the " + config.sinkType() + " sink: " + e.getMessage(), e);
    }
  }

  private static EngineEnvironment ofOrg(EngineEnvironment environment, Shard.Org org) {
    return new EngineEnvironment(
        environment.clock(),
        environment.ticker(),
        environment.random(),
        new OrgThreads(environment.threads(), org.name()),
        OrgMeters.of(environment.metrics(), org.name()));
  }

  private static ShardSources sources(
      Sf2LokiConfig config, EngineEnvironment environment, Map<String, String> labels) {
    SourceEnvironment sourceEnvironment =
        new SourceEnvironment(
            environment.clock(),
            environment.ticker(),
            environment.random(),
            environment.threads(),
            environment.metrics(),
            labels,
            config.categoryOwnership());
    List<SourceProvider.Factory> factories = List.copyOf(config.sources().values());
    Optional<OrgSession> session = openSession(factories, sourceEnvironment);
    TermSources sources =
        () -> {
          // Created at every acquire, after the login: the org id it resolved labels the entries.
          SourceEnvironment term =
              session
                  .map(s -> sourceEnvironment.withSession(s, withOrgId(labels, s.identity())))
                  .orElse(sourceEnvironment);
          List<Source> all = new ArrayList<>();
          for (SourceProvider.Factory factory : factories) {
            all.addAll(factory.create(term));
          }
          return all;
        };
    return new ShardSources(sources, session);
  }

  /** How a composition sees the store it created: as it is, or through an org's view. */
  @FunctionalInterface
  private interface StoreView {
    CheckpointStore of(CheckpointStore document, StoreEnvironment environment);
  }

  private static Engine compose(
      Sf2LokiConfig config,
      EngineEnvironment environment,
      Map<String, String> variables,
      Map<String, String> runLabels,
      StoreView view,
      UnaryOperator<CoordinatorEnvironment> shardOf) {
    Clock clock = environment.clock();
    Ticker ticker = environment.ticker();
    MeterRegistry registry = environment.metrics();
    StoreEnvironment stores =
        new StoreEnvironment(!config.isCoordinated(), clock, registry, environment.threads());
    CheckpointStore document = config.store().create(stores);
    Optional<EpochFloor> floor =
        document instanceof EpochFloor epochFloor ? Optional.of(epochFloor) : Optional.empty();
    CheckpointStore store = view.of(document, stores);
    CoordinatorEnvironment coordination =
        shardOf.apply(
            new CoordinatorEnvironment(
                clock, ticker, floor, registry, variables, environment.threads()));
    Supplier<Coordinator> coordinators = () -> config.coordinator().create(coordination);
    Sink sink = sink(config, environment);
    Map<String, String> labels = deploymentLabels(config);
    runLabels.forEach(
        (name, value) -> {
          if (!StreamLabels.ALLOWLIST.contains(name) || labels.containsKey(name)) {
            throw new IllegalArgumentException(
                "run label '" + name + "' is not an allowed stream label or is already set");
          }
          labels.put(name, value);
        });
    ShardSources sources = sources(config, environment, labels);
    return Engine.builder(coordinators, store, sink, sources.sources(), environment)
        .settings(settings(config, labels))
        .orgSessions(sources.session().stream().toList())
        .build();
  }

  /** The org's session, from the first enabled source family that opens one. */
  private static Optional<OrgSession> openSession(
      List<SourceProvider.Factory> factories, SourceEnvironment environment) {
    return factories.stream()
        .filter(OrgSessions.class::isInstance)
        .findFirst()
        .map(f -> ((OrgSessions) f).openSession(environment));
  }

  /** {@code labels} with the logged-in org's id as {@code sf_org_id}, unless configured. */
  static Map<String, String> withOrgId(Map<String, String> labels, Optional<OrgIdentity> org) {
    if (org.isEmpty() || labels.containsKey("sf_org_id")) {
      return labels;
    }
    Map<String, String> out = new LinkedHashMap<>(labels);
    out.put("sf_org_id", org.get().orgId());
    return out;
  }

  /**
   * The engine's settings from {@code config}: the lanes ({@code sink.loki.batch.*}, {@code
   * sink.loki.retry.lane_*}), the egress controls ({@code sink.loki.egress}), the drain budget
   * ({@code service.shutdown_grace}), the checkpoint writes' spacing ({@code
   * state.streaming_commit_interval}), the health bounds ({@code service.liveness_timeout}, {@code
   * service.unready_after_stall}), {@code labels} and the answer to failures ({@code
   * service.permanent_failure_attempts}, {@code service.failure_backoff_*}); the rest are {@link
   * EngineSettings#defaults()}.
   */
  public static EngineSettings settings(Sf2LokiConfig config, Map<String, String> labels) {
    EngineSettings defaults = EngineSettings.defaults();
    ServiceConfig service = config.service();
    return defaults
        .withPipeline(
            defaults
                .pipeline()
                .withLanes(config.lanes())
                .withLane(Source.Lane.STREAMING, config.lanes().forStreaming())
                .withEgress(config.egress())
                .withShutdownGrace(service.shutdownGrace())
                .withStreamingCommitInterval(config.streamingCommitInterval())
                .withStaticLabels(labels))
        .withLivenessTimeout(service.livenessTimeout())
        .withUnreadyAfterStall(service.unreadyAfterStall())
        .withFailures(
            new FailurePolicy(
                service.permanentFailureAttempts(),
                service.failureBackoffMin(),
                service.failureBackoffMax()));
  }

  /** The label names the enabled sources promote from payloads, which the sink keeps as labels. */
  public static Set<String> promotedLabels(Sf2LokiConfig config) {
    Set<String> names = new TreeSet<>();
    for (SourceProvider.Factory factory : config.sources().values()) {
      if (factory instanceof PromotedLabels promoting) {
        names.addAll(promoting.promotedLabels());
      }
    }
    return names;
  }

  /**
   * The labels every entry carries: {@code job} and {@code service_name} ({@code sf2loki}), {@code
   * environment}, {@code sf_org_id} when configured, then the operator's labels. An unset {@code
   * salesforce.org_id} is resolved at login and added to the sources' labels then.
   */
  public static Map<String, String> deploymentLabels(Sf2LokiConfig config) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("job", "sf2loki");
    labels.put("service_name", "sf2loki");
    labels.put("environment", config.salesforce().environment());
    config.salesforce().orgId().ifPresent(id -> labels.put("sf_org_id", id));
    labels.putAll(config.sink().labels());
    return labels;
  }
}
