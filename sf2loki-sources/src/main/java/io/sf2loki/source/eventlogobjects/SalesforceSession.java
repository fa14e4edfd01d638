package io.sf2loki.source.eventlogobjects;

import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.salesforce.auth.OAuthTokenProvider;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.rest.CallObserver;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ServerClock;
import io.sf2loki.spi.SourceEnvironment;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * The Salesforce access one polling source needs for a run: its own HTTP client, token provider,
 * REST client and the server clock learned from response {@code Date} headers.
 *
 * @param http the HTTP client; close it when the source ends
 * @param rest the REST/Tooling client
 * @param serverClock Salesforce's clock (settle bounds, lookback)
 * @param tokens the run's token provider (the Pub/Sub channel's credentials read it too)
 */
public record SalesforceSession(
    CloseableHttpClient http,
    SalesforceRestClient rest,
    ServerClock serverClock,
    TokenProvider tokens) {

  /**
   * Opens the clients for one run of {@code source}; performs no network I/O until the first call.
   */
  public static SalesforceSession open(
      SalesforceConfig salesforce, SourceEnvironment env, String source) {
    return open(salesforce, env, source, CallObserver.NONE);
  }

  /** As {@link #open(SalesforceConfig, SourceEnvironment, String)}, reporting to {@code calls}. */
  public static SalesforceSession open(
      SalesforceConfig salesforce, SourceEnvironment env, String source, CallObserver calls) {
    CloseableHttpClient http = SalesforceHttpClients.create(salesforce);
    OAuthTokenProvider tokens =
        OAuthTokenProvider.fromConfig(salesforce, http, env.clock(), env.random(), env.metrics());
    ServerClock serverClock = new ServerClock(env.clock(), env.metrics(), source);
    SalesforceRestClient rest =
        new SalesforceRestClient(
            http, tokens, salesforce.apiVersion(), serverClock, env.metrics(), calls);
    return new SalesforceSession(http, rest, serverClock, tokens);
  }
}
