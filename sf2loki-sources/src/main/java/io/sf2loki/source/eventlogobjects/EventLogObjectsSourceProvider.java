package io.sf2loki.source.eventlogobjects;

import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.ApiBudgetConfig;
import io.sf2loki.salesforce.org.SalesforceOrgSession;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.shape.Categories;
import io.sf2loki.shape.CategoryClaims;
import io.sf2loki.shape.PromotedLabels;
import io.sf2loki.shape.Shaper;
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
import java.util.function.Supplier;

/**
 * The {@code eventlog_objects} source type. {@link #configure} binds {@code
 * sources.eventlog_objects} and the {@code salesforce} section without I/O; the factory creates one
 * {@link EventLogObjectsSource} per leadership run with its own HTTP client on the org's shared
 * session ({@link OrgSessions}), and offers {@link CategoryClaims} so the overlap guard sees its
 * objects.
 */
public final class EventLogObjectsSourceProvider implements SourceProvider {

  /** No I/O: the service loader instantiates every provider. */
  public EventLogObjectsSourceProvider() {}

  @Override
  public String type() {
    return EventLogObjectsSource.SOURCE;
  }

  @Override
  public Factory configure(ConfigSection section) {
    EventLogObjectsConfig config = EventLogObjectsConfig.bind(section);
    ConfigSection salesforceSection = section.root().section("salesforce");
    SalesforceConfig salesforce = SalesforceConfig.bind(salesforceSection);
    return new ObjectsFactory(config, salesforce, ApiBudgetConfig.bind(salesforceSection));
  }

  /** The bound configuration; creates the source and claims the objects' categories. */
  record ObjectsFactory(
      EventLogObjectsConfig config, SalesforceConfig salesforce, ApiBudgetConfig budget)
      implements Factory, CategoryClaims, PromotedLabels, OrgSessions {

    @Override
    public OrgSession openSession(SourceEnvironment environment) {
      return SalesforceOrgSession.open(salesforce, budget, environment);
    }

    @Override
    public List<Source> create(SourceEnvironment environment) {
      return List.of(EventLogObjectsSourceProvider.create(config, salesforce, budget, environment));
    }

    @Override
    public Map<String, String> explicitCategories() {
      Map<String, String> out = new LinkedHashMap<>();
      config.objects().forEach(o -> out.put(o.name(), Categories.ofIdentifier(o.name())));
      return out;
    }

    @Override
    public boolean discovers() {
      return config.discovery().isPresent();
    }

    @Override
    public Set<String> promotedLabels() {
      Set<String> names = new TreeSet<>();
      config.objects().forEach(o -> names.addAll(o.shaping().labels()));
      return names;
    }

    @Override
    public int mostPromotedPerStream() {
      return config.objects().stream().mapToInt(o -> o.shaping().labels().size()).max().orElse(0);
    }
  }

  /**
   * The inventory of what a bounded run of {@code factory}'s objects would read (the backfill dry
   * run), on the org's session as a run's; empty when {@code factory} is not this type's.
   */
  public static Optional<ObjectInventory> inventory(Factory factory, SourceEnvironment env) {
    if (!(factory instanceof ObjectsFactory objects)) {
      return Optional.empty();
    }
    SalesforceSession session =
        SalesforceSession.open(
            objects.salesforce(), objects.budget(), env, EventLogObjectsSource.SOURCE);
    ObjectPoller poller =
        poller(objects.config(), session.rest(), session.serverClock(), env, metrics(env));
    return Optional.of(
        new ObjectInventory(
            objects.config(),
            poller,
            session.rest(),
            session.serverClock(),
            session,
            objects.budget().limitsEnabled()));
  }

  /** Wires a source for one run; public so library users can skip the config loader. */
  public static EventLogObjectsSource create(
      EventLogObjectsConfig config, SalesforceConfig salesforce, SourceEnvironment env) {
    return create(config, salesforce, ApiBudgetConfig.DEFAULTS, env);
  }

  /** As above, spending the org's API budget under {@code budgetConfig}. */
  public static EventLogObjectsSource create(
      EventLogObjectsConfig config,
      SalesforceConfig salesforce,
      ApiBudgetConfig budgetConfig,
      SourceEnvironment env) {
    SalesforceSession session =
        SalesforceSession.open(salesforce, budgetConfig, env, EventLogObjectsSource.SOURCE);
    return create(
        config,
        session.rest(),
        session.serverClock(),
        env,
        () -> env.random().nextDouble(-1, 1),
        session,
        session.budget());
  }

  /**
   * Wires a source around an existing client.
   *
   * @param salesforceNow Salesforce's clock (settle bound, lookback)
   * @param jitter values in [-1, 1]: a poll interval is shortened by 10 % times the value's size
   * @param resources closed with the source
   */
  public static EventLogObjectsSource create(
      EventLogObjectsConfig config,
      SalesforceRestClient rest,
      Supplier<java.time.Instant> salesforceNow,
      SourceEnvironment env,
      java.util.function.DoubleSupplier jitter,
      java.io.Closeable resources) {
    return create(config, rest, salesforceNow, env, jitter, resources, ApiBudget.unmetered());
  }

  /** Wires a source around an existing client that reports to {@code budget}. */
  public static EventLogObjectsSource create(
      EventLogObjectsConfig config,
      SalesforceRestClient rest,
      Supplier<java.time.Instant> salesforceNow,
      SourceEnvironment env,
      java.util.function.DoubleSupplier jitter,
      java.io.Closeable resources,
      ApiBudget budget) {
    ObjectMetrics metrics = metrics(env);
    return new EventLogObjectsSource(
        config.objects(),
        poller(config, rest, salesforceNow, env, metrics),
        metrics,
        env.ticker(),
        jitter,
        resources,
        rest,
        budget,
        config.discovery().map(d -> new EloObjectDiscovery(d, rest, env.categoryOwnership())));
  }

  private static ObjectMetrics metrics(SourceEnvironment env) {
    return new ObjectMetrics(EventLogObjectsSource.SOURCE, env.metrics());
  }

  private static ObjectPoller poller(
      EventLogObjectsConfig config,
      SalesforceRestClient rest,
      Supplier<java.time.Instant> salesforceNow,
      SourceEnvironment env,
      ObjectMetrics metrics) {
    Shaper shaper =
        new Shaper(
            EventLogObjectsSource.SOURCE,
            config.shaping(),
            env.deploymentLabels(),
            env.clock(),
            env.metrics());
    return new ObjectPoller(
        rest,
        new ObjectEmitter(shaper),
        metrics,
        config.maxCatchupRecords(),
        salesforceNow,
        config.window());
  }
}
