package io.sf2loki.salesforce.org;

import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.auth.OAuthTokenProvider;
import io.sf2loki.salesforce.auth.TokenErrorRemedy;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.ApiBudgetConfig;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.OrgIdentity;
import io.sf2loki.spi.OrgLoginException;
import io.sf2loki.spi.OrgSession;
import io.sf2loki.spi.SourceEnvironment;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link OrgSession} of the {@code salesforce} section: its own HTTP client and the one {@link
 * OAuthTokenProvider} every source of the org mints through, so an org has one token however many
 * sources it feeds, and the one {@link ApiBudget} they all spend (so the org's API share is counted
 * once for the process, across leadership terms). {@link #login} mints (or reuses) the token and
 * resolves the org id ({@code salesforce.org_id}, else {@link OrgIds}). Thread-safe.
 */
public final class SalesforceOrgSession implements OrgSession {

  private static final Logger LOG = LoggerFactory.getLogger(SalesforceOrgSession.class);

  private final SalesforceConfig config;
  private final CloseableHttpClient http;
  private final TokenProvider tokens;
  private final SalesforceRestClient rest;
  private final ApiBudget budget;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile OrgIdentity identity;

  private SalesforceOrgSession(
      SalesforceConfig config,
      CloseableHttpClient http,
      TokenProvider tokens,
      SalesforceRestClient rest,
      ApiBudget budget) {
    this.config = config;
    this.http = http;
    this.tokens = tokens;
    this.rest = rest;
    this.budget = budget;
  }

  /** As {@link #open(SalesforceConfig, ApiBudgetConfig, SourceEnvironment)} with the defaults. */
  public static SalesforceOrgSession open(SalesforceConfig config, SourceEnvironment env) {
    return open(config, ApiBudgetConfig.DEFAULTS, env);
  }

  /**
   * Opens the session {@code config} describes, spending the API share {@code budgetConfig} sets;
   * no network I/O until the first call.
   */
  public static SalesforceOrgSession open(
      SalesforceConfig config, ApiBudgetConfig budgetConfig, SourceEnvironment env) {
    CloseableHttpClient http = SalesforceHttpClients.create(config);
    OAuthTokenProvider tokens =
        OAuthTokenProvider.fromConfig(config, http, env.clock(), env.random(), env.metrics());
    ApiBudget budget = new ApiBudget(budgetConfig, env.clock(), env.metrics(), env.random());
    SalesforceRestClient rest =
        new SalesforceRestClient(
            http, tokens, config.apiVersion(), date -> {}, env.metrics(), budget);
    return new SalesforceOrgSession(config, http, tokens, rest, budget);
  }

  /** The session {@code env} shares with every source of the org, when it is one of these. */
  public static Optional<SalesforceOrgSession> sharedBy(SourceEnvironment env) {
    return env.session()
        .filter(SalesforceOrgSession.class::isInstance)
        .map(SalesforceOrgSession.class::cast);
  }

  /** The org's token provider, shared by every source of the org. */
  public TokenProvider tokens() {
    return tokens;
  }

  /** The org's API budget, shared by every poller of the org. */
  public ApiBudget budget() {
    return budget;
  }

  @Override
  public String loginHost() {
    return config.loginUrl().toString();
  }

  @Override
  public OrgIdentity login() throws OrgLoginException, InterruptedException {
    AccessToken token;
    try {
      token = tokens.token();
    } catch (AuthException e) {
      throw loginFailed(e);
    }
    Optional<String> configured = config.orgId();
    String orgId = configured.isPresent() ? configured.get() : OrgIds.resolve(token, rest);
    OrgIdentity known = new OrgIdentity(orgId, token.instanceUrl());
    identity = known;
    return known;
  }

  @Override
  public Optional<OrgIdentity> identity() {
    return Optional.ofNullable(identity);
  }

  /**
   * The org id: {@code salesforce.org_id}, else the one the last login resolved, else resolved now
   * (a source used before any login, as a library user may).
   */
  /**
   * The failure of a login, with a rejected one's fix decoded for the configured flow (the same
   * one-line remedy {@code doctor} prints), so the daemon's last ERROR line says what to change.
   */
  private OrgLoginException loginFailed(AuthException e) {
    FailureClass failure = e.failureClass();
    if (!failure.isPermanent()) {
      return new OrgLoginException("Salesforce login failed: " + e.getMessage(), failure, e);
    }
    TokenErrorRemedy remedy = TokenErrorRemedy.of(e, config);
    return new OrgLoginException(
        "Salesforce login failed: " + e.getMessage() + " (" + remedy.cause() + ")",
        FailureClass.permanent(failure.reason(), failure.resource(), remedy.remedy()),
        e);
  }

  public String orgId() throws OrgLoginException, InterruptedException {
    Optional<String> configured = config.orgId();
    if (configured.isPresent()) {
      return configured.get();
    }
    OrgIdentity known = identity;
    return known != null ? known.orgId() : login().orgId();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        http.close();
      } catch (IOException e) {
        LOG.debug("closing the Salesforce session's HTTP client failed: {}", e.toString());
      }
    }
  }
}
