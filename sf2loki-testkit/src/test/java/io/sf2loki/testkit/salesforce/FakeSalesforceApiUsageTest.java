package io.sf2loki.testkit.salesforce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FakeSalesforceApiUsageTest {

  private static final String LIMITS = "/services/data/v60.0/limits";
  private static final String SOBJECTS = "/services/data/v60.0/sobjects/";

  private FakeSalesforce sf;
  private SalesforceHttp http;
  private String token;

  @BeforeEach
  void start() throws Exception {
    sf = FakeSalesforce.builder().clientId("cid").clientSecret("shh").build();
    http = new SalesforceHttp(sf.baseUrl());
    token = http.accessToken();
  }

  @AfterEach
  void stop() {
    sf.close();
  }

  @Test
  void everyRestAnswerCarriesTheCallsServedAgainstTheDailyLimit() throws Exception {
    sf.apiUsage().limit(500);

    HttpResponse<String> first = http.get(token, SOBJECTS);
    HttpResponse<String> second = http.get(token, LIMITS);

    assertThat(first.headers().firstValue("Sforce-Limit-Info")).hasValue("api-usage=1/500");
    assertThat(second.headers().firstValue("Sforce-Limit-Info")).hasValue("api-usage=2/500");
  }

  @Test
  void tokenRequestsAreNotCounted() throws Exception {
    http.accessToken();

    assertThat(sf.apiUsage().used()).isZero();
  }

  @Test
  void limitsReportsTheDailyAllocationFromTheSameCounter() throws Exception {
    sf.apiUsage().limit(1000).used(99);

    JsonNode body = Json.read(http.get(token, LIMITS).body());

    assertThat(body.path("DailyApiRequests").path("Max").asLong()).isEqualTo(1000);
    assertThat(body.path("DailyApiRequests").path("Remaining").asLong()).isEqualTo(900);
    assertThat(body.path("DailyBulkApiBatches").path("Max").isIntegralNumber()).isTrue();
  }

  @Test
  void anEnforcedLimitRefusesCallsPastItWithRequestLimitExceeded() throws Exception {
    sf.apiUsage().limit(1).enforce(true);
    http.get(token, LIMITS);

    HttpResponse<String> refused = http.get(token, SOBJECTS);

    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body()).contains("REQUEST_LIMIT_EXCEEDED");
    assertThat(sf.apiUsage().used()).isEqualTo(1);
  }

  @Test
  void aFreedWindowServesAgain() throws Exception {
    sf.apiUsage().limit(1).enforce(true).used(1);
    sf.apiUsage().used(0);

    assertThat(http.get(token, SOBJECTS).statusCode()).isEqualTo(200);
  }

  @Test
  void aScriptedHeaderReplacesTheRealOne() throws Exception {
    sf.apiUsage().headerOverride("api-usage=lots");

    assertThat(http.get(token, SOBJECTS).headers().firstValue("Sforce-Limit-Info"))
        .hasValue("api-usage=lots");
  }

  @Test
  void anOmittedHeaderIsNotSent() throws Exception {
    sf.apiUsage().omitHeader(true);

    assertThat(http.get(token, SOBJECTS).headers().firstValue("Sforce-Limit-Info")).isEmpty();
  }

  @Test
  void aFailingLimitsEndpointAnswers500() throws Exception {
    sf.apiUsage().failLimits(true);

    assertThat(http.get(token, LIMITS).statusCode()).isEqualTo(500);
    assertThat(http.get(token, SOBJECTS).statusCode()).isEqualTo(200);
  }
}
