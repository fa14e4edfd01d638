package io.sf2loki.salesforce.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.source.eventlogobjects.SalesforceSession;
import io.sf2loki.spi.CategoryOwnership;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.OrgIdentity;
import io.sf2loki.spi.OrgLoginException;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.Fault;
import java.net.URI;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.junit.jupiter.api.Test;

/**
 * Logging an org session in against the fake org: the token's identity URL names the org (no
 * userinfo call, no openid scope needed), a configured org id is trusted as it is, a token without
 * an identity URL asks userinfo, and each failure says whether trying again can help.
 */
class SalesforceOrgSessionIT {

  private static final String ORG = "00D5g000004ABCDEAQ";
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  private static FakeSalesforce.Builder org() {
    return FakeSalesforce.builder().clientId("cid").clientSecret("s3cr3t-value").orgId(ORG);
  }

  private SalesforceOrgSession session(FakeSalesforce sf, String more) {
    return SalesforceOrgSession.open(
        config(sf, more),
        new SourceEnvironment(
            Clock.systemUTC(),
            Ticker.SYSTEM,
            new Random(1),
            new NamedThreadFactory("test"),
            metrics,
            Map.of()));
  }

  private static SalesforceConfig config(FakeSalesforce sf, String more) {
    ConfigReader root =
        ConfigReader.of(
            ConfigFactory.parseString(
                    """
                    salesforce {
                      auth_mode = client_credentials
                      login_url = "%s"
                      client_id = cid
                      client_secret = "s3cr3t-value"
                      %s
                    }
                    """
                        .formatted(sf.baseUrl(), more))
                .withFallback(ConfigFactory.parseResources("reference.conf"))
                .resolve());
    SalesforceConfig config = SalesforceConfig.bind(root.section("salesforce"));
    root.throwIfInvalid();
    return config;
  }

  @Test
  void everySourceOfTheOrgSpendsTheSessionsOneApiBudget() throws Exception {
    try (FakeSalesforce sf = org().build();
        SalesforceOrgSession org = session(sf, "")) {
      SourceEnvironment shared =
          new SourceEnvironment(
              Clock.systemUTC(),
              Ticker.SYSTEM,
              new Random(1),
              new NamedThreadFactory("test"),
              metrics,
              Map.of(),
              CategoryOwnership.unrestricted(),
              Optional.of(org));
      SalesforceConfig config = config(sf, "");
      try (SalesforceSession files = SalesforceSession.open(config, shared, "eventlogfile");
          SalesforceSession objects = SalesforceSession.open(config, shared, "eventlog_objects")) {
        files.rest().getJson(files.rest().dataPath("limits"));
        objects.rest().getJson(objects.rest().dataPath("limits"));

        assertThat(files.budget()).isSameAs(org.budget()).isSameAs(objects.budget());
        org.budget().pace();
        assertThat(metrics.get("sf2loki_salesforce_api_budget_used").gauge().value()).isEqualTo(2);
      }
    }
  }

  @Test
  void theTokensIdentityUrlNamesTheOrgWithoutAskingUserinfo() throws Exception {
    try (FakeSalesforce sf = org().scopes("api", "refresh_token").build();
        SalesforceOrgSession session = session(sf, "")) {
      OrgIdentity identity = session.login();

      assertThat(identity).isEqualTo(new OrgIdentity(ORG, sf.baseUrl()));
      assertThat(session.identity()).contains(identity);
      assertThat(sf.stats().requests(Fault.Route.USERINFO)).isZero();
      assertThat(metrics.get("sf2loki_salesforce_auth_up").gauge().value()).isEqualTo(1);
    }
  }

  @Test
  void aConfiguredOrgIdIsTrustedAsItIs() throws Exception {
    try (FakeSalesforce sf = org().build();
        SalesforceOrgSession session = session(sf, "org_id = 00D000000000009AAA")) {
      assertThat(session.login().orgId()).isEqualTo("00D000000000009AAA");
      assertThat(session.orgId()).isEqualTo("00D000000000009AAA");
    }
  }

  @Test
  void aLoginReusesTheTokenItsSourcesShare() throws Exception {
    try (FakeSalesforce sf = org().build();
        SalesforceOrgSession session = session(sf, "")) {
      session.login();
      session.tokens().token();
      session.login();

      assertThat(sf.tokensIssued()).isEqualTo(1);
    }
  }

  @Test
  void rejectedCredentialsArePermanent() throws Exception {
    try (FakeSalesforce sf = org().clientSecret("another").build();
        SalesforceOrgSession session = session(sf, "")) {
      assertThatThrownBy(session::login)
          .isInstanceOfSatisfying(
              OrgLoginException.class,
              e -> {
                assertThat(e.failureClass().reason()).isEqualTo("auth_rejected");
                assertThat(e.getMessage())
                    .contains("invalid_client")
                    .doesNotContain("s3cr3t-value");
              });
      assertThat(metrics.get("sf2loki_salesforce_auth_up").gauge().value()).isZero();
      assertThat(
              metrics.get("sf2loki_auth_errors").tag("reason", "invalid_client").counter().count())
          .isEqualTo(1);
    }
  }

  @Test
  void aTokenEndpointThatFailsIsTransient() throws Exception {
    try (FakeSalesforce sf = org().build();
        SalesforceOrgSession session = session(sf, "request_timeout = 2s")) {
      sf.inject(Fault.serverError(Fault.Route.TOKEN).times(4));

      assertThatThrownBy(session::login)
          .isInstanceOfSatisfying(
              OrgLoginException.class, e -> assertThat(e.failureClass().isPermanent()).isFalse());
      assertThat(metrics.get("sf2loki_auth_errors").tag("reason", "server_error").counter().count())
          .isEqualTo(1);
    }
  }

  /** A provider handing out {@code token} as it is: minted by the fake, without identity URL. */
  private static TokenProvider fixed(AccessToken token) {
    return new TokenProvider() {
      @Override
      public AccessToken token() {
        return token;
      }

      @Override
      public void invalidate(AccessToken used) {}
    };
  }

  private static AccessToken withoutIdentityUrl(SalesforceOrgSession session)
      throws AuthException, InterruptedException {
    AccessToken minted = session.tokens().token();
    return new AccessToken(minted.value(), minted.instanceUrl(), minted.refreshAt());
  }

  @Test
  void aTokenWithoutIdentityUrlAsksUserinfo() throws Exception {
    try (FakeSalesforce sf = org().build();
        SalesforceOrgSession session = session(sf, "");
        CloseableHttpClient http =
            SalesforceHttpClients.create(TestTiming.seconds(5), Optional.empty())) {
      AccessToken token = withoutIdentityUrl(session);
      SalesforceRestClient rest = new SalesforceRestClient(http, fixed(token), "60.0", d -> {});

      assertThat(OrgIds.resolve(token, rest)).isEqualTo(ORG);
      assertThat(sf.stats().requests(Fault.Route.USERINFO)).isEqualTo(1);
    }
  }

  @Test
  void userinfoRefusingATokenWithoutTheOpenidScopeIsPermanentWithItsFix() throws Exception {
    try (FakeSalesforce sf = org().scopes("api").build();
        SalesforceOrgSession session = session(sf, "");
        CloseableHttpClient http =
            SalesforceHttpClients.create(TestTiming.seconds(5), Optional.empty())) {
      AccessToken token = withoutIdentityUrl(session);
      SalesforceRestClient rest = new SalesforceRestClient(http, fixed(token), "60.0", d -> {});

      assertThatThrownBy(() -> OrgIds.resolve(token, rest))
          .isInstanceOfSatisfying(
              OrgLoginException.class,
              e -> {
                assertThat(e.failureClass().reason()).isEqualTo("auth_org_id_unresolved");
                assertThat(e.failureClass().fix()).contains("salesforce.org_id", "openid");
              });
    }
  }

  @Test
  void anIdentityUrlNamesItsOrgOnlyInTheDocumentedShape() {
    assertThat(
            OrgIds.fromIdentityUrl(
                URI.create("https://login.salesforce.com/id/" + ORG + "/005000000000001AAA")))
        .contains(ORG);
    assertThat(OrgIds.fromIdentityUrl(URI.create("https://login.salesforce.com/id/x/y"))).isEmpty();
    assertThat(OrgIds.fromIdentityUrl(URI.create("https://acme.my.salesforce.com/"))).isEmpty();
  }
}
