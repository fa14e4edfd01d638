package io.sf2loki.source.eventlogfile;

import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.salesforce.auth.PemKeys;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.ApiBudgetConfig;
import io.sf2loki.salesforce.org.SalesforceOrgSession;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ServerClock;
import io.sf2loki.shape.Categories;
import io.sf2loki.shape.CategoryClaims;
import io.sf2loki.shape.PromotedLabels;
import io.sf2loki.shape.Shaper;
import io.sf2loki.source.eventlogobjects.SalesforceSession;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.OrgSession;
import io.sf2loki.spi.OrgSessions;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.spi.SourceProvider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code eventlogfile} source type. {@link #configure} binds {@code sources.eventlogfile} and
 * the shared {@code salesforce} section (checking that a configured private key parses) without any
 * I/O; the factory creates one {@link EventLogFileSource} per leadership run with its own HTTP
 * client on the org's shared session ({@link OrgSessions}), and offers {@link CategoryClaims} so
 * the overlap guard sees its explicit types.
 */
public final class EventLogFileSourceProvider implements SourceProvider {

  /** No I/O: the service loader instantiates every provider. */
  public EventLogFileSourceProvider() {}

  @Override
  public String type() {
    return "eventlogfile";
  }

  @Override
  public Factory configure(ConfigSection section) {
    EventLogFileConfig config = EventLogFileConfig.bind(section);
    ConfigSection salesforceSection = section.root().section("salesforce");
    SalesforceConfig salesforce = SalesforceConfig.bind(salesforceSection);
    salesforce
        .privateKey()
        .ifPresent(
            key -> {
              try {
                PemKeys.parseRsaPrivateKey(key.reveal());
              } catch (IllegalArgumentException e) {
                salesforceSection.problem(
                    "private_key", salesforceSection.path("private_key") + ": " + e.getMessage());
              }
            });
    return new ElfFactory(config, salesforce, ApiBudgetConfig.bind(salesforceSection));
  }

  /** The bound configuration; creates the source and claims the explicit types' categories. */
  record ElfFactory(EventLogFileConfig config, SalesforceConfig salesforce, ApiBudgetConfig budget)
      implements Factory, CategoryClaims, PromotedLabels, OrgSessions {

    @Override
    public OrgSession openSession(SourceEnvironment environment) {
      return SalesforceOrgSession.open(salesforce, budget, environment);
    }

    @Override
    public List<Source> create(SourceEnvironment environment) {
      return List.of(EventLogFileSourceProvider.create(config, salesforce, budget, environment));
    }

    @Override
    public Map<String, String> explicitCategories() {
      Map<String, String> out = new LinkedHashMap<>();
      config.explicitTypes().forEach(t -> out.put(t, Categories.ofElfType(t)));
      return out;
    }

    @Override
    public boolean discovers() {
      return config.discovers();
    }

    @Override
    public Set<String> promotedLabels() {
      Set<String> names = new TreeSet<>();
      config.typeShaping().values().forEach(t -> names.addAll(t.labels()));
      return names;
    }

    @Override
    public int mostPromotedPerStream() {
      return config.typeShaping().values().stream()
          .mapToInt(t -> t.labels().size())
          .max()
          .orElse(0);
    }
  }

  /** Wires a source for one run; public so library users can skip the config loader. */
  public static Source create(
      EventLogFileConfig config, SalesforceConfig salesforce, SourceEnvironment env) {
    return create(config, salesforce, ApiBudgetConfig.DEFAULTS, env);
  }

  /** As above; {@code budgetConfig} sets the API share when the source opens its own session. */
  public static Source create(
      EventLogFileConfig config,
      SalesforceConfig salesforce,
      ApiBudgetConfig budgetConfig,
      SourceEnvironment env) {
    return connect(config, salesforce, budgetConfig, env).source();
  }

  /**
   * The listing-only view of a configured {@code eventlogfile} source, with its own HTTP client and
   * token provider (the backfill dry run); empty when {@code factory} is another type's.
   */
  public static Optional<ElfInventory> inventory(Factory factory, SourceEnvironment env) {
    if (!(factory instanceof ElfFactory elf)) {
      return Optional.empty();
    }
    Wired w = connect(elf.config(), elf.salesforce(), elf.budget(), env);
    return Optional.of(
        new ElfInventory(
            elf.config(),
            w.types(),
            w.cursors(),
            w.rest(),
            w.http(),
            elf.budget().limitsEnabled()));
  }

  private static Wired connect(
      EventLogFileConfig config,
      SalesforceConfig salesforce,
      ApiBudgetConfig budgetConfig,
      SourceEnvironment env) {
    // The org's shared session when the composition gave one, else one of its own (library use).
    SalesforceSession session =
        SalesforceSession.open(salesforce, budgetConfig, env, ElfMetrics.SOURCE);
    return wire(config, session.rest(), session.serverClock(), env, session, session.budget());
  }

  static EventLogFileSource create(
      EventLogFileConfig config,
      SalesforceRestClient rest,
      ServerClock serverClock,
      SourceEnvironment env,
      AutoCloseable resources) {
    return wire(config, rest, serverClock, env, resources, ApiBudget.unmetered()).source();
  }

  /** One run's parts; {@code http} is what the source closes when its run ends. */
  private record Wired(
      ElfTypes types,
      ElfCursors cursors,
      SalesforceRestClient rest,
      AutoCloseable http,
      EventLogFileSource source) {}

  static EventLogFileSource create(
      EventLogFileConfig config,
      SalesforceRestClient rest,
      ServerClock serverClock,
      SourceEnvironment env,
      AutoCloseable resources,
      ApiBudget budget) {
    return wire(config, rest, serverClock, env, resources, budget).source();
  }

  private static Wired wire(
      EventLogFileConfig config,
      SalesforceRestClient rest,
      ServerClock serverClock,
      SourceEnvironment env,
      AutoCloseable resources,
      ApiBudget budget) {
    ElfMetrics metrics = new ElfMetrics(env.metrics());
    Escalation escalation = new Escalation();
    ElfCursors cursors =
        new ElfCursors(config.lookback(), config.window().bounds(), serverClock, metrics);
    Shaper shaper =
        new Shaper(
            ElfMetrics.SOURCE,
            config.shaping(),
            env.deploymentLabels(),
            env.clock(),
            env.metrics());
    ElfEntries entries = new ElfEntries(shaper, config.timestampColumn());
    ElfTypeCycle cycle =
        new ElfTypeCycle(
            config,
            rest,
            serverClock,
            cursors,
            new ElfFileRows(entries, metrics),
            metrics,
            escalation);
    ElfTypes types = new ElfTypes(config, rest, env.categoryOwnership(), metrics, escalation);
    EventLogFileSource source =
        new EventLogFileSource(
            config,
            rest,
            cycle,
            new ElfCycle(config, rest, types, cursors, cycle, metrics, escalation),
            metrics,
            env.ticker(),
            env.threads(),
            resources,
            budget);
    return new Wired(types, cursors, rest, resources, source);
  }
}
