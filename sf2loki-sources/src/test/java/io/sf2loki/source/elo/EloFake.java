package io.sf2loki.source.elo;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.salesforce.auth.ClientCredentialsGrant;
import io.sf2loki.salesforce.auth.OAuthTokenProvider;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.spi.Secret;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/** A fake org on a simulated clock (queryMore batches of 500) and a REST client against it. */
final class EloFake implements AutoCloseable {

  static final Instant START = Instant.parse("2026-06-30T12:00:00Z");

  final MutableClock clock = new MutableClock(START);
  final FakeSalesforce sf =
      FakeSalesforce.builder()
          .clientId("cid")
          .clientSecret("secret")
          .clock(clock)
          .queryBatchSize(500)
          .build();
  private final CloseableHttpClient http =
      SalesforceHttpClients.create(TestTiming.seconds(10), Optional.empty());
  final SalesforceRestClient rest =
      new SalesforceRestClient(
          http,
          new OAuthTokenProvider(
              http,
              sf.baseUrl(),
              new ClientCredentialsGrant("cid", Secret.of("secret")),
              Duration.ofHours(1),
              Clock.systemUTC(),
              Backoff.NONE,
              d -> {},
              new SimpleMeterRegistry()),
          "60.0",
          t -> {});

  @Override
  public void close() throws java.io.IOException {
    sf.close();
    http.close();
  }
}
