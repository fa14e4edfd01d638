package io.sf2loki.cli.doctor;

import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.config.LoadedConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.TopologyWarnings;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.coordinate.k8s.K8sLeaseAccessReview;
import io.sf2loki.coordinate.k8s.K8sLeaseConfig;
import io.sf2loki.loki.LokiSinkConfig;
import io.sf2loki.loki.LokiSinkProvider;
import io.sf2loki.otlp.OtlpSinkConfig;
import io.sf2loki.otlp.OtlpSinkProvider;
import io.sf2loki.salesforce.limits.ApiBudgetConfig;
import io.sf2loki.source.eventlogobjects.EventLogObjectsConfig;
import io.sf2loki.source.eventlogobjects.ObjectSpec;
import io.sf2loki.source.pubsub.PubSubConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Which checks a configuration calls for, in the order they run: auth, clock skew, the org's API
 * limits, the permissions of each enabled source, each Pub/Sub topic, Loki, the store, the lease
 * and Kubernetes RBAC. With {@code orgs} each org runs those of its own Salesforce org, document
 * and lease ({@link #ofOrg}) and the orgs share Loki and RBAC ({@link #shared}). Checks that cannot
 * apply are listed as SKIP with the reason, so every run shows the same rows.
 */
public final class DoctorChecks {

  private static final String K8S_LEASE = "coordinate.k8s_lease";

  private DoctorChecks() {}

  /** The {@code config} row of a configuration that loaded and validated. */
  public static CheckReport configLoaded(Sf2LokiConfig config) {
    String detail =
        "sources="
            + (config.sources().isEmpty()
                ? "none"
                : String.join(",", new TreeSet<>(config.sources().keySet())))
            + shared(config);
    return configRow(detail, TopologyWarnings.of(config));
  }

  /**
   * The {@code config} row of a configuration of orgs ({@code orgs=prod,emea sink=…}), with the
   * topology warnings of every org; a single-org configuration's is {@link
   * #configLoaded(Sf2LokiConfig)}.
   */
  public static CheckReport configLoaded(Shards shards) {
    if (!shards.multiOrg()) {
      return configLoaded(shards.first().config());
    }
    String detail = "orgs=" + String.join(",", shards.orgNames()) + shared(shards.first().config());
    return configRow(detail, shards.topologyWarnings());
  }

  private static String shared(Sf2LokiConfig config) {
    return " sink="
        + config.sinkType()
        + " store="
        + config.storeType()
        + " coordinate="
        + config.coordinatorType();
  }

  private static CheckReport configRow(String detail, List<String> warnings) {
    CheckResult result =
        warnings.isEmpty()
            ? new CheckResult.Pass(detail)
            : new CheckResult.Warn(
                detail + "; " + String.join("; ", warnings),
                "this topology validates but is unsafe; see docs/deployment/high-availability.md");
    return new CheckReport("config", result, Duration.ZERO);
  }

  /** The {@code config} row of a configuration that failed to load or validate. */
  public static CheckReport configInvalid(ConfigInvalidException e) {
    return new CheckReport(
        "config",
        new CheckResult.Fail(
            e.getMessage(), "fix the keys named; 'config check' validates without the network"),
        Duration.ZERO);
  }

  /** The online checks for {@code config}. */
  public static List<Check> of(Sf2LokiConfig config) {
    List<Check> checks = new ArrayList<>(salesforce(config));
    checks.add(loki(config, config.loaded()));
    checks.add(new StateCheck());
    checks.add(new LeaseCheck());
    checks.add(
        "k8s_lease".equals(config.coordinatorType())
            ? new K8sRbacCheck(K8sLeaseConfig.bind(config.loaded().reader().section(K8S_LEASE)))
            : rbacSkipped(config));
    return checks;
  }

  /**
   * The checks one org of several runs with its own configuration ({@code shard.config()}): those
   * of {@link #of} that talk to its Salesforce org, its checkpoint document and its lease, and
   * {@code loki} when the org pushes with a {@code sink.loki.tenant_id} of its own.
   *
   * @param loaded the configuration as loaded, whose top-level tenant the org may inherit
   */
  public static List<Check> ofOrg(Sf2LokiConfig config, LoadedConfig loaded) {
    List<Check> checks = new ArrayList<>(salesforce(config));
    checks.add(new StateCheck());
    checks.add(new LeaseCheck());
    if (ownTenant(config, loaded)) {
      // its own tenant may be refused where the shared one is accepted (per-tenant limits, auth)
      checks.add(loki(config, config.loaded()));
    }
    return checks;
  }

  /**
   * The checks the orgs of {@code shards} share, run once: Loki (the top-level {@code sink.loki},
   * when an org pushes with its tenant) and Kubernetes RBAC over every org's Lease and the roster
   * ({@link #k8sRbac}).
   */
  public static List<Check> shared(LoadedConfig loaded, Shards shards) {
    Sf2LokiConfig first = shards.first().config();
    boolean anyInherits = shards.all().stream().anyMatch(s -> !ownTenant(s.config(), loaded));
    Check loki =
        anyInherits
            ? loki(first, loaded)
            : fixed(
                "loki",
                new CheckResult.Skip(
                    "every org pushes with a tenant of its own (each org's loki row)"));
    return List.of(
        loki,
        "k8s_lease".equals(first.coordinatorType()) ? k8sRbac(loaded, shards) : rbacSkipped(first));
  }

  /** Whether the org's {@code sink.loki.tenant_id} differs from the top-level one it inherits. */
  private static boolean ownTenant(Sf2LokiConfig org, LoadedConfig loaded) {
    if (!LokiSinkProvider.TYPE.equals(org.sinkType())) {
      return false;
    }
    return !tenant(org.loaded()).equals(tenant(loaded));
  }

  private static Optional<String> tenant(LoadedConfig loaded) {
    return LokiSinkConfig.bind(loaded.reader().section("sink.loki")).tenantId();
  }

  /** Auth, clock skew, the org's limits, each enabled source's permissions and Pub/Sub topics. */
  private static List<Check> salesforce(Sf2LokiConfig config) {
    ConfigReader root = config.loaded().reader();
    List<Check> checks = new ArrayList<>();
    checks.add(new AuthCheck());
    checks.add(new ClockSkewCheck());
    checks.add(new LimitsCheck(ApiBudgetConfig.bind(root.section("salesforce"))));
    if (config.sources().containsKey("eventlogfile")) {
      checks.add(new EventLogFileAccessCheck());
    }
    if (config.sources().containsKey("eventlog_objects")) {
      EventLogObjectsConfig objects =
          EventLogObjectsConfig.bind(root.section("sources.eventlog_objects"));
      List<String> elos =
          objects.objects().stream()
              .map(ObjectSpec::name)
              .filter(n -> n.endsWith("EventLog"))
              .toList();
      if (!elos.isEmpty() || objects.discovery().isPresent()) {
        checks.add(
            new EventLogObjectsCheck(
                elos,
                objects.discovery().isPresent(),
                objects.discovery().map(d -> d.exclude()).orElse(List.of())));
      }
      for (ObjectSpec o : objects.objects()) {
        checks.add(new ObjectAccessCheck(o.name()));
      }
    }
    if (config.sources().containsKey("pubsub")) {
      PubSubConfig pubsub = PubSubConfig.bind(root.section("sources.pubsub"));
      for (String topic : pubsub.explicitTopics()) {
        checks.add(new PubSubTopicCheck(pubsub, topic));
      }
      if (pubsub.discovers()) {
        checks.add(
            fixed(
                "pubsub:*",
                new CheckResult.Warn(
                    "topics \"*\" are discovered at run time and not checked here",
                    "list the topics in sources.pubsub.topics to have doctor check each")));
      }
    }
    return checks;
  }

  /**
   * The sink's check: {@code loki} of {@code loaded}'s {@code sink.loki}, {@code otlp} of its
   * {@code sink.otlp}, a {@code loki} SKIP for another sink.
   */
  private static Check loki(Sf2LokiConfig config, LoadedConfig loaded) {
    if (OtlpSinkProvider.TYPE.equals(config.sinkType())) {
      return new OtlpCheck(OtlpSinkConfig.bind(loaded.reader().section("sink.otlp")));
    }
    return LokiSinkProvider.TYPE.equals(config.sinkType())
        ? new LokiCheck(LokiSinkConfig.bind(loaded.reader().section("sink.loki")))
        : fixed("loki", new CheckResult.Skip("sink.type is " + config.sinkType()));
  }

  private static Check rbacSkipped(Sf2LokiConfig config) {
    return fixed(
        "k8s_rbac", new CheckResult.Skip("coordinate.type is " + config.coordinatorType()));
  }

  /**
   * The {@code k8s_rbac} check of a configuration of one org or several: the org's Lease, or with
   * {@code orgs} every org's Lease (named as each org's coordinator names it) and, with two or
   * more, the roster's.
   *
   * @param loaded the configuration as loaded, whose {@code coordinate.k8s_lease} the orgs share
   * @param shards its shards ({@code Shards.bind(loaded, …)})
   */
  public static Check k8sRbac(LoadedConfig loaded, Shards shards) {
    K8sLeaseConfig base = K8sLeaseConfig.bind(loaded.reader().section(K8S_LEASE));
    List<String> orgLeases =
        shards.multiOrg()
            ? shards.all().stream()
                .map(s -> K8sLeaseConfig.bind(s.config().loaded().reader().section(K8S_LEASE)))
                .map(K8sLeaseConfig::name)
                .toList()
            : List.of();
    return new K8sRbacCheck(base, K8sLeaseAccessReview.leasesOf(base.name(), orgLeases));
  }

  private static Check fixed(String name, CheckResult result) {
    return new Check() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public CheckResult run(DoctorContext context) {
        return result;
      }
    };
  }
}
