package io.sf2loki.source.eventlogobjects;

import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.ApiBudgetConfig;
import io.sf2loki.salesforce.org.SalesforceOrgSession;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ServerClock;
import io.sf2loki.spi.SourceEnvironment;
import java.io.Closeable;
import java.io.IOException;
import java.util.Optional;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * The Salesforce access one source needs for a run: its own HTTP client and REST client, the server
 * clock learned from response {@code Date} headers, and the org's session, whose one token provider
 * every source of the org shares. Closing it closes the source's HTTP client, and the org session
 * too when the source had to open one of its own.
 *
 * @param http the source's HTTP client for REST calls and downloads
 * @param rest the REST/Tooling client
 * @param serverClock Salesforce's clock (settle bounds, lookback)
 * @param org the org's session: the launcher's shared one, or the source's own
 * @param ownsOrg true when the source opened {@code org} itself and closes it
 */
public record SalesforceSession(
    CloseableHttpClient http,
    SalesforceRestClient rest,
    ServerClock serverClock,
    SalesforceOrgSession org,
    boolean ownsOrg)
    implements Closeable {

  /**
   * Opens the clients for one run of {@code source} on the org session {@code env} shares (or one
   * of its own when it shares none); performs no network I/O until the first call.
   */
  public static SalesforceSession open(
      SalesforceConfig salesforce, SourceEnvironment env, String source) {
    return open(salesforce, ApiBudgetConfig.DEFAULTS, env, source);
  }

  /**
   * As {@link #open(SalesforceConfig, SourceEnvironment, String)}; {@code budget} configures the
   * org session's API budget when the source must open one of its own.
   */
  public static SalesforceSession open(
      SalesforceConfig salesforce, ApiBudgetConfig budget, SourceEnvironment env, String source) {
    CloseableHttpClient http = SalesforceHttpClients.create(salesforce);
    Optional<SalesforceOrgSession> shared = SalesforceOrgSession.sharedBy(env);
    SalesforceOrgSession org =
        shared.orElseGet(() -> SalesforceOrgSession.open(salesforce, budget, env));
    ServerClock serverClock = new ServerClock(env.clock(), env.metrics(), source);
    SalesforceRestClient rest =
        new SalesforceRestClient(
            http, org.tokens(), salesforce.apiVersion(), serverClock, env.metrics(), org.budget());
    return new SalesforceSession(http, rest, serverClock, org, shared.isEmpty());
  }

  /** The org's API budget, which every poller of the org spends. */
  public ApiBudget budget() {
    return org.budget();
  }

  /** The org's token provider (the Pub/Sub channel's credentials read it too). */
  public TokenProvider tokens() {
    return org.tokens();
  }

  @Override
  public void close() throws IOException {
    try {
      http.close();
    } finally {
      if (ownsOrg) {
        org.close();
      }
    }
  }
}
