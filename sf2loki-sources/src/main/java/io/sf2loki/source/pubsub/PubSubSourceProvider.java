package io.sf2loki.source.pubsub;

import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.limits.ApiBudgetConfig;
import io.sf2loki.salesforce.org.SalesforceOrgSession;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.shape.Categories;
import io.sf2loki.shape.CategoryClaims;
import io.sf2loki.shape.PromotedLabels;
import io.sf2loki.shape.Shaper;
import io.sf2loki.source.eventlogobjects.SalesforceSession;
import io.sf2loki.source.pubsub.client.PubSubClient;
import io.sf2loki.source.pubsub.decode.SchemaCache;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.OrgLoginException;
import io.sf2loki.spi.OrgSession;
import io.sf2loki.spi.OrgSessions;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.spi.SourceProvider;
import java.io.Closeable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The {@code pubsub} source type. {@link #configure} binds {@code sources.pubsub} and {@code
 * salesforce} without I/O; each run gets its own channel and HTTP client on the org's shared
 * session ({@link OrgSessions}), whose token provider the channel's credentials read too. Claims
 * its explicit topics' categories for the overlap guard and discovers with {@code "*"}.
 */
public final class PubSubSourceProvider implements SourceProvider {

  /** No I/O: the service loader instantiates every provider. */
  public PubSubSourceProvider() {}

  @Override
  public String type() {
    return PubSubSource.SOURCE;
  }

  @Override
  public Factory configure(ConfigSection section) {
    PubSubConfig config = PubSubConfig.bind(section);
    ConfigSection salesforceSection = section.root().section("salesforce");
    SalesforceConfig salesforce = SalesforceConfig.bind(salesforceSection);
    return new PubSubFactory(config, salesforce, ApiBudgetConfig.bind(salesforceSection));
  }

  /** The bound configuration; creates the source and claims the topics' categories. */
  record PubSubFactory(PubSubConfig config, SalesforceConfig salesforce, ApiBudgetConfig budget)
      implements Factory, CategoryClaims, PromotedLabels, OrgSessions {

    @Override
    public OrgSession openSession(SourceEnvironment environment) {
      return SalesforceOrgSession.open(salesforce, budget, environment);
    }

    @Override
    public List<Source> create(SourceEnvironment environment) {
      return List.of(PubSubSourceProvider.create(config, salesforce, environment));
    }

    @Override
    public Map<String, String> explicitCategories() {
      Map<String, String> out = new LinkedHashMap<>();
      config
          .explicitTopics()
          .forEach(t -> out.put(t, Categories.ofIdentifier(EventEntries.eventType(t))));
      return out;
    }

    @Override
    public boolean discovers() {
      return config.discovers();
    }

    @Override
    public Set<String> promotedLabels() {
      return Set.of();
    }
  }

  /** Wires a source for one run; public so library users can skip the config loader. */
  public static PubSubSource create(
      PubSubConfig config, SalesforceConfig salesforce, SourceEnvironment env) {
    SalesforceSession session = SalesforceSession.open(salesforce, env, PubSubSource.SOURCE);
    return create(config, session.rest(), session.tokens(), tenantId(session.org()), env, session);
  }

  /**
   * Wires a source around an existing REST client and token provider.
   *
   * @param tenantId the org id sent as {@code tenantid}
   * @param resources closed with the source
   */
  public static PubSubSource create(
      PubSubConfig config,
      SalesforceRestClient rest,
      TokenProvider tokens,
      Supplier<String> tenantId,
      SourceEnvironment env,
      Closeable resources) {
    PubSubMetrics metrics = new PubSubMetrics(env.metrics());
    PubSubClient client =
        new PubSubClient(
            config.endpoint(),
            config.plaintext(),
            config.credits(),
            tokens,
            tenantId,
            config.callTimeout());
    SchemaCache schemas = new SchemaCache(client.schemaFetcher(), config.schemaCacheSize());
    metrics.schemaCache(schemas::size);
    Shaper shaper =
        new Shaper(
            PubSubSource.SOURCE,
            config.shaping(),
            env.deploymentLabels(),
            env.clock(),
            env.metrics());
    EventEntries entries = new EventEntries(shaper, schemas, metrics, config);
    Backoff backoff =
        Backoff.exponentialPlusHalf(config.reconnectBase(), config.reconnectMax(), env.random());
    TopicDiscovery discovery =
        new TopicDiscovery(config, rest, client, env.categoryOwnership(), metrics);
    return new PubSubSource(
        discovery::topics,
        topic ->
            new TopicSubscriber(
                topic,
                client,
                entries,
                config,
                metrics,
                backoff,
                env.ticker(),
                new PositionAge(topic, env.clock(), metrics),
                config
                    .managedSubscription(topic)
                    .map(name -> new ManagedSubscription(topic, name, metrics))),
        config.rediscoveryInterval(),
        env.threads(),
        PubSubSource.closing(client, resources));
  }

  /** The org id the session knows (configured or resolved at login), else resolved now. */
  static Supplier<String> tenantId(SalesforceOrgSession org) {
    return () -> {
      try {
        return org.orgId();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while resolving the org id", e);
      } catch (OrgLoginException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    };
  }
}
