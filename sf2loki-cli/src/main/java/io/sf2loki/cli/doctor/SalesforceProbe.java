package io.sf2loki.cli.doctor;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.auth.OAuthTokenProvider;
import io.sf2loki.salesforce.auth.TokenRetry;
import io.sf2loki.salesforce.rest.MalformedResponseException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ServerClock;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * The one Salesforce session of a {@code doctor} run: the token provider, REST client and server
 * clock the sources would build, shared by the checks that talk to the org. Its token provider
 * makes one request per mint ({@link TokenRetry#NONE}): a check reports the first failure inside
 * its timeout instead of waiting out the daemon's retries. Thread-safe.
 */
final class SalesforceProbe implements AutoCloseable {

  private final CloseableHttpClient http;
  private final OAuthTokenProvider tokens;
  private final SalesforceRestClient rest;
  private final ServerClock serverClock;
  private volatile boolean sampled;
  private volatile String orgId;

  SalesforceProbe(SalesforceConfig config, Clock clock) {
    SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    this.http = SalesforceHttpClients.create(config);
    this.tokens = OAuthTokenProvider.fromConfig(config, http, clock, TokenRetry.NONE, metrics);
    this.serverClock = new ServerClock(clock);
    this.rest = new SalesforceRestClient(http, tokens, config.apiVersion(), this::observe, metrics);
  }

  private void observe(Instant serverDate) {
    serverClock.accept(serverDate);
    sampled = true;
  }

  /** A token, minted on first use. */
  AccessToken token() throws AuthException, InterruptedException {
    return tokens.token();
  }

  /** The token provider, for the Pub/Sub channel's credentials. */
  OAuthTokenProvider tokens() {
    return tokens;
  }

  /** The REST client. */
  SalesforceRestClient rest() {
    return rest;
  }

  /** The org id userinfo names for the token's user; asked once. */
  String orgId() throws SalesforceApiException, AuthException, InterruptedException {
    String known = orgId;
    if (known == null) {
      known = rest.getJson("/services/oauth2/userinfo").path("organization_id").asText("");
      if (known.isEmpty()) {
        throw new MalformedResponseException("userinfo has no organization_id", null);
      }
      orgId = known;
    }
    return known;
  }

  /** Salesforce's clock minus ours, from the last response's {@code Date}; empty before one. */
  Optional<Duration> skew() {
    return sampled ? Optional.of(serverClock.observedSkew()) : Optional.empty();
  }

  @Override
  public void close() throws IOException {
    http.close();
  }
}
