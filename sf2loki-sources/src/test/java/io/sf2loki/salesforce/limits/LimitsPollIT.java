package io.sf2loki.salesforce.limits;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.sf2loki.testkit.salesforce.Fault;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LimitsPollIT {

  private final FakeSalesforce sf =
      FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-06-30T00:00:00Z"));
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final CloseableHttpClient http =
      SalesforceHttpClients.create(TestTiming.seconds(10), Optional.empty());
  private final ApiBudget budget =
      new ApiBudget(
          new ApiBudgetConfig(0.2, true, Duration.ofMinutes(5), Duration.ofMinutes(1)),
          clock,
          metrics,
          new Random(1));
  private final SalesforceRestClient rest =
      new SalesforceRestClient(
          http,
          new OAuthTokenProvider(
              http,
              sf.baseUrl(),
              new ClientCredentialsGrant("cid", Secret.of("secret")),
              Duration.ofHours(1),
              clock,
              Backoff.NONE,
              d -> {},
              new SimpleMeterRegistry()),
          "60.0",
          d -> {},
          metrics,
          budget);

  @AfterEach
  void close() throws Exception {
    sf.close();
    http.close();
  }

  private double limitGauge(String name, String limit) {
    return metrics.get(name).tag("limit_name", limit).gauge().value();
  }

  private double pollErrors() {
    return metrics.get("sf2loki_salesforce_limits_poll_errors").counter().count();
  }

  @Test
  void aPollFeedsEachLimitsMaxAndRemaining() throws Exception {
    sf.apiUsage().limit(10_000).used(1_000);

    budget.beforeCycle(rest);

    assertThat(limitGauge("sf2loki_salesforce_limit_max", "DailyApiRequests")).isEqualTo(10_000);
    assertThat(limitGauge("sf2loki_salesforce_limit_remaining", "DailyApiRequests"))
        .isEqualTo(8_999); // the poll is a call too
    assertThat(limitGauge("sf2loki_salesforce_limit_max", "DataStorageMB")).isEqualTo(1_024);
  }

  @Test
  void theDailyLimitFromLimitsSetsTheAllowance() throws Exception {
    sf.apiUsage().limit(10_000).omitHeader(true);

    budget.beforeCycle(rest);
    budget.pace();

    assertThat(metrics.get("sf2loki_salesforce_api_budget_allowance").gauge().value())
        .isEqualTo(2_000);
  }

  @Test
  void theHeaderOfEveryAnswerFeedsTheUsageGauges() throws Exception {
    sf.apiUsage().limit(10_000).used(41);

    rest.getJson(rest.dataPath("sobjects"));

    assertThat(metrics.get("sf2loki_salesforce_api_usage_used").gauge().value()).isEqualTo(42);
    assertThat(metrics.get("sf2loki_salesforce_api_usage_limit").gauge().value()).isEqualTo(10_000);
  }

  @Test
  void limitsArePolledAtMostOncePerInterval() throws Exception {
    budget.beforeCycle(rest);
    budget.beforeCycle(rest);
    assertThat(sf.apiUsage().used()).isEqualTo(1);

    clock.advance(Duration.ofMinutes(5));
    budget.beforeCycle(rest);

    assertThat(sf.apiUsage().used()).isEqualTo(2);
  }

  @Test
  void aFailingLimitsEndpointIsCountedAndTheCycleGoesOn() throws Exception {
    sf.apiUsage().failLimits(true);

    Pace pace = budget.beforeCycle(rest);
    clock.advance(Duration.ofMinutes(5));
    budget.beforeCycle(rest);

    assertThat(pace.admits()).isTrue();
    assertThat(pollErrors()).isEqualTo(2);
  }

  @Test
  void aLimitsBodyThatIsNotJsonIsCountedAndTheCycleGoesOn() throws Exception {
    rest.getJson(rest.dataPath("sobjects")); // mint the token first: ANY faults hit it too
    sf.inject(Fault.malformed(Fault.Route.ANY, Fault.Kind.NON_JSON));

    Pace pace = budget.beforeCycle(rest);

    assertThat(pace.admits()).isTrue();
    assertThat(pollErrors()).isEqualTo(1);
  }

  @Test
  void aMalformedUsageHeaderIsCountedAndTheCallSucceeds() throws Exception {
    sf.apiUsage().headerOverride("api-usage=lots");

    assertThat(rest.getJson(rest.dataPath("sobjects")).has("sobjects")).isTrue();
    assertThat(metrics.get("sf2loki_salesforce_limit_info_errors").counter().count()).isEqualTo(1);
  }
}
