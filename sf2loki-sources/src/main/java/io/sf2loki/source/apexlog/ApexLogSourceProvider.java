package io.sf2loki.source.apexlog;

import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.ApiBudgetConfig;
import io.sf2loki.salesforce.org.SalesforceOrgSession;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.shape.Shaper;
import io.sf2loki.source.eventlogobjects.ObjectMetrics;
import io.sf2loki.source.eventlogobjects.SalesforceSession;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.OrgSession;
import io.sf2loki.spi.OrgSessions;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.spi.SourceProvider;
import java.io.Closeable;
import java.time.Instant;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The {@code apexlog} source type (off by default). ApexLog has a category of its own, so it never
 * takes part in the overlap guard.
 */
public final class ApexLogSourceProvider implements SourceProvider {

  /** No I/O: the service loader instantiates every provider. */
  public ApexLogSourceProvider() {}

  @Override
  public String type() {
    return ApexLogSource.SOURCE;
  }

  @Override
  public Factory configure(ConfigSection section) {
    ApexLogConfig config = ApexLogConfig.bind(section);
    ConfigSection salesforceSection = section.root().section("salesforce");
    SalesforceConfig salesforce = SalesforceConfig.bind(salesforceSection);
    return new ApexLogFactory(config, salesforce, ApiBudgetConfig.bind(salesforceSection));
  }

  /** The bound configuration; creates the source on the org's shared session. */
  record ApexLogFactory(ApexLogConfig config, SalesforceConfig salesforce, ApiBudgetConfig budget)
      implements Factory, OrgSessions {

    @Override
    public List<Source> create(SourceEnvironment environment) {
      return List.of(ApexLogSourceProvider.create(config, salesforce, budget, environment));
    }

    @Override
    public OrgSession openSession(SourceEnvironment environment) {
      return SalesforceOrgSession.open(salesforce, budget, environment);
    }
  }

  /** Wires a source for one run; public so library users can skip the config loader. */
  public static ApexLogSource create(
      ApexLogConfig config, SalesforceConfig salesforce, SourceEnvironment env) {
    return create(config, salesforce, ApiBudgetConfig.DEFAULTS, env);
  }

  /** As above, spending the org's API budget under {@code budgetConfig}. */
  public static ApexLogSource create(
      ApexLogConfig config,
      SalesforceConfig salesforce,
      ApiBudgetConfig budgetConfig,
      SourceEnvironment env) {
    SalesforceSession session =
        SalesforceSession.open(salesforce, budgetConfig, env, ApexLogSource.SOURCE);
    return create(
        config,
        session.rest(),
        session.serverClock(),
        env,
        () -> env.random().nextDouble(-1, 1),
        session,
        session.budget());
  }

  /** Wires a source around an existing client. */
  public static ApexLogSource create(
      ApexLogConfig config,
      SalesforceRestClient rest,
      Supplier<Instant> salesforceNow,
      SourceEnvironment env,
      DoubleSupplier jitter,
      Closeable resources) {
    return create(config, rest, salesforceNow, env, jitter, resources, ApiBudget.unmetered());
  }

  /** Wires a source around an existing client that reports to {@code budget}. */
  public static ApexLogSource create(
      ApexLogConfig config,
      SalesforceRestClient rest,
      Supplier<Instant> salesforceNow,
      SourceEnvironment env,
      DoubleSupplier jitter,
      Closeable resources,
      ApiBudget budget) {
    ObjectMetrics metrics = new ObjectMetrics(ApexLogSource.SOURCE, env.metrics());
    ApexLogMetrics logMetrics = new ApexLogMetrics(env.metrics());
    Shaper shaper =
        new Shaper(
            ApexLogSource.SOURCE,
            config.shaping(),
            env.deploymentLabels(),
            env.clock(),
            env.metrics());
    ApexLogBodies bodies = new ApexLogBodies(rest, config, logMetrics, salesforceNow);
    ApexLogCycle cycle =
        new ApexLogCycle(
            rest, config, bodies, shaper, logMetrics, () -> metrics.stall(ApexLogSource.SOURCE));
    return new ApexLogSource(
        config, cycle, bodies, metrics, salesforceNow, jitter, resources, rest, budget);
  }
}
