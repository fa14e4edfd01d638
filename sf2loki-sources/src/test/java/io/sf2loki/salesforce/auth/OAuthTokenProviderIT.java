package io.sf2loki.salesforce.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.salesforce.testing.TestKeys;
import io.sf2loki.spi.Secret;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.Fault;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OAuthTokenProviderIT {

  private final MutableClock clock = new MutableClock(Instant.now());
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final CloseableHttpClient http =
      SalesforceHttpClients.create(TestTiming.seconds(5), Optional.empty());
  private final FakeSalesforce sf =
      FakeSalesforce.builder()
          .clientId("cid")
          .clientSecret("s3cr3t-value")
          .username("integration@example.com")
          .jwtPublicKey(TestKeys.PAIR.getPublic())
          .build();

  @AfterEach
  void close() throws Exception {
    sf.close();
    http.close();
  }

  private OAuthTokenProvider jwt(String username, URI login) {
    TokenGrant grant =
        new JwtBearerGrant(
            "cid", username, login.toString(), PemKeys.parseRsaPrivateKey(TestKeys.pkcs8Pem()));
    return provider(grant, login);
  }

  private OAuthTokenProvider clientCredentials(String secret) {
    return provider(new ClientCredentialsGrant("cid", Secret.of(secret)), sf.baseUrl());
  }

  private OAuthTokenProvider provider(TokenGrant grant, URI login) {
    return new OAuthTokenProvider(
        http, login, grant, Duration.ofHours(1), clock, Backoff.NONE, d -> {}, metrics);
  }

  @Test
  void jwtBearerAssertionIsAcceptedByTheTokenEndpoint() throws Exception {
    AccessToken t = jwt("integration@example.com", sf.baseUrl()).token();
    assertThat(t.instanceUrl()).isEqualTo(sf.baseUrl());
    assertThat(metrics.counter("sf2loki_auth_refreshes").count()).isEqualTo(1);
  }

  @Test
  void clientCredentialsMintAToken() throws Exception {
    assertThat(clientCredentials("s3cr3t-value").token().value().reveal()).isNotBlank();
  }

  @Test
  void tokenIsCachedUntilSixtySecondsBeforeItsAssumedExpiry() throws Exception {
    OAuthTokenProvider p = clientCredentials("s3cr3t-value");
    AccessToken first = p.token();
    clock.advance(Duration.ofMinutes(58));
    assertThat(p.token()).isSameAs(first);
    clock.advance(Duration.ofSeconds(61));
    assertThat(p.token()).isNotSameAs(first);
    assertThat(sf.tokensIssued()).isEqualTo(2);
  }

  @Test
  void invalidateDiscardsOnlyTheTokenThatFailed() throws Exception {
    OAuthTokenProvider p = clientCredentials("s3cr3t-value");
    AccessToken stale = p.token();
    p.invalidate(stale);
    AccessToken fresh = p.token();
    p.invalidate(stale); // a slow caller reporting the old token must not drop the new one
    assertThat(p.token()).isSameAs(fresh);
    assertThat(sf.tokensIssued()).isEqualTo(2);
  }

  @Test
  void rejectedJwtFailsAtOnceWithSalesforcesErrorAndDescription() {
    OAuthTokenProvider p = jwt("someone-else@example.com", sf.baseUrl());
    assertThatThrownBy(p::token)
        .isInstanceOf(AuthException.class)
        .hasMessageContaining("400 invalid_grant: user hasn't approved this consumer")
        .satisfies(e -> assertThat(((AuthException) e).error()).contains("invalid_grant"))
        .satisfies(
            e ->
                assertThat(((AuthException) e).description())
                    .contains("user hasn't approved this consumer"))
        .satisfies(
            e ->
                assertThat(((AuthException) e).failureClass().reason())
                    .as("no retry fixes a rejected grant")
                    .isEqualTo("auth_rejected"));
    assertThat(sf.stats().requests(Fault.Route.TOKEN)).isEqualTo(1);
    assertThat(metrics.get("sf2loki_auth_errors").counter().count()).isEqualTo(1);
  }

  @Test
  void authErrorNeverCarriesTheSecret() {
    OAuthTokenProvider p = clientCredentials("wrong-secret-value");
    assertThatThrownBy(p::token)
        .hasMessageContaining("invalid_client")
        .satisfies(e -> assertThat(e.toString()).doesNotContain("wrong-secret-value"));
  }

  @Test
  void serverErrorsAreRetriedUntilAMintSucceeds() throws Exception {
    sf.inject(Fault.serverError(Fault.Route.TOKEN).times(2));
    assertThat(clientCredentials("s3cr3t-value").token()).isNotNull();
    assertThat(sf.stats().requests(Fault.Route.TOKEN)).isEqualTo(3);
  }

  @Test
  void persistentServerErrorsGiveUpAfterFourAttempts() {
    sf.inject(Fault.serverError(Fault.Route.TOKEN).times(10));
    assertThatThrownBy(clientCredentials("s3cr3t-value")::token).hasMessageContaining("500");
    assertThat(sf.stats().requests(Fault.Route.TOKEN)).isEqualTo(4);
    assertThat(metrics.get("sf2loki_auth_errors").counter().count()).isEqualTo(1);
  }

  @Test
  void withoutRetriesAServerErrorFailsTheMintAfterOneRequest() {
    sf.inject(Fault.serverError(Fault.Route.TOKEN).times(10));
    OAuthTokenProvider once =
        new OAuthTokenProvider(
            http,
            sf.baseUrl(),
            new ClientCredentialsGrant("cid", Secret.of("s3cr3t-value")),
            Duration.ofHours(1),
            clock,
            TokenRetry.NONE,
            d -> {
              throw new AssertionError("no retry, no wait");
            },
            metrics);

    assertThatThrownBy(once::token).hasMessageContaining("500");
    assertThat(sf.stats().requests(Fault.Route.TOKEN)).isEqualTo(1);
    assertThat(metrics.get("sf2loki_auth_errors").counter().count()).isEqualTo(1);
  }

  @Test
  void concurrentCallersShareOneMint() throws Exception {
    sf.inject(Fault.latency(Fault.Route.TOKEN, Duration.ofMillis(300)));
    OAuthTokenProvider p = clientCredentials("s3cr3t-value");
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<AccessToken>> results = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        results.add(pool.submit(p::token));
      }
      for (Future<AccessToken> f : results) {
        assertThat(f.get()).isSameAs(results.get(0).get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(sf.tokensIssued()).isEqualTo(1);
  }

  @Test
  void tokenRequestsGoThroughTheConfiguredProxy() throws Exception {
    URI unreachable = URI.create("http://salesforce.invalid:9");
    try (FakeSalesforce proxied =
            FakeSalesforce.builder()
                .clientId("cid")
                .username("integration@example.com")
                .jwtPublicKey(TestKeys.PAIR.getPublic())
                .audience(unreachable.toString())
                .build();
        CloseableHttpClient viaProxy =
            SalesforceHttpClients.create(TestTiming.seconds(5), Optional.of(proxied.baseUrl()))) {
      TokenGrant grant =
          new JwtBearerGrant(
              "cid",
              "integration@example.com",
              unreachable.toString(),
              PemKeys.parseRsaPrivateKey(TestKeys.pkcs1Pem()));
      OAuthTokenProvider p =
          new OAuthTokenProvider(
              viaProxy,
              unreachable,
              grant,
              Duration.ofHours(1),
              clock,
              Backoff.NONE,
              d -> {},
              metrics);
      assertThat(p.token().instanceUrl()).isEqualTo(proxied.baseUrl());
    }
  }
}
