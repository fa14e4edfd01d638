package io.sf2loki.salesforce.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.salesforce.auth.ClientCredentialsGrant;
import io.sf2loki.salesforce.auth.OAuthTokenProvider;
import io.sf2loki.spi.Secret;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.Fault;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SalesforceRestClientIT {

  private static final Instant HOUR = Instant.parse("2026-06-30T00:00:00Z");
  private static final String LISTING =
      "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence FROM EventLogFile"
          + " WHERE EventType='Login' AND Interval='Hourly' AND CreatedDate >="
          + " 2026-06-29T00:00:00.000Z ORDER BY CreatedDate, Id LIMIT 1000";

  private final FakeSalesforce sf =
      FakeSalesforce.builder().clientId("cid").clientSecret("secret").queryBatchSize(2).build();
  private final CloseableHttpClient http =
      SalesforceHttpClients.create(TestTiming.millis(1500), Optional.empty());
  private final List<Instant> dates = new CopyOnWriteArrayList<>();
  private final SimpleMeterRegistry calls = new SimpleMeterRegistry();
  private final SalesforceRestClient client =
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
          dates::add,
          calls);

  @AfterEach
  void close() throws Exception {
    sf.close();
    http.close();
  }

  private void files(int n) {
    for (int i = 0; i < n; i++) {
      sf.addLogFile("Login", "Hourly", HOUR, HOUR.plusSeconds(i), 1);
    }
  }

  @Test
  void queryFollowsNextRecordsUrlAcrossPages() throws Exception {
    files(5);
    QueryResult result = client.query(LISTING);
    assertThat(result.records()).hasSize(5);
    assertThat(result.pages()).isEqualTo(3);
    assertThat(result.records().get(0).path("attributes").path("type").asText())
        .isEqualTo("EventLogFile");
  }

  @Test
  void an401RefreshesTheTokenAndRetriesOnce() throws Exception {
    files(1);
    client.query(LISTING);
    sf.expireAllTokens();
    assertThat(client.query(LISTING).records()).hasSize(1);
    assertThat(sf.tokensIssued()).isEqualTo(2);
  }

  @Test
  void aSecond401InARowIsAnApiError() {
    sf.inject(Fault.invalidSession(Fault.Route.QUERY).times(2));
    assertThatThrownBy(() -> client.query(LISTING))
        .isInstanceOfSatisfying(
            ApiErrorException.class, e -> assertThat(e.status()).isEqualTo(401));
  }

  @Test
  void requestLimitExceededIsATypedThrottle() {
    sf.inject(Fault.requestLimitExceeded(Fault.Route.QUERY));
    assertThatThrownBy(() -> client.query(LISTING)).isInstanceOf(ThrottledException.class);
  }

  @Test
  void a403WithoutTheLimitCodeIsAnApiError() {
    sf.inject(Fault.status(Fault.Route.QUERY, 403, "[{\"errorCode\":\"INSUFFICIENT_ACCESS\"}]"));
    assertThatThrownBy(() -> client.query(LISTING)).isInstanceOf(ApiErrorException.class);
  }

  @Test
  void serverErrorCarriesStatusAndBody() {
    sf.inject(Fault.serverError(Fault.Route.QUERY));
    assertThatThrownBy(() -> client.query(LISTING))
        .isInstanceOfSatisfying(
            ApiErrorException.class,
            e -> {
              assertThat(e.reason()).isEqualTo("HTTP 500");
              assertThat(e.body()).contains("UNKNOWN_EXCEPTION");
            });
  }

  @Test
  void unknownQueryShapeIsAnApiErrorWithMalformedQuery() {
    assertThatThrownBy(() -> client.query("SELECT Id FROM Nothing"))
        .isInstanceOfSatisfying(
            ApiErrorException.class, e -> assertThat(e.body()).contains("MALFORMED_QUERY"));
  }

  @Test
  void nonJson2xxIsAMalformedResponse() {
    sf.inject(Fault.malformed(Fault.Route.QUERY, Fault.Kind.NON_JSON));
    assertThatThrownBy(() -> client.query(LISTING)).isInstanceOf(MalformedResponseException.class);
  }

  @Test
  void jsonArray2xxIsAMalformedResponse() {
    sf.inject(Fault.malformed(Fault.Route.QUERY, Fault.Kind.JSON_ARRAY));
    assertThatThrownBy(() -> client.query(LISTING)).isInstanceOf(MalformedResponseException.class);
  }

  @Test
  void objectWithoutRecordsIsAMalformedResponse() {
    sf.inject(Fault.malformed(Fault.Route.QUERY, Fault.Kind.WRONG_SHAPE));
    assertThatThrownBy(() -> client.query(LISTING)).isInstanceOf(MalformedResponseException.class);
  }

  @Test
  void slowAnswerTimesOutAsATransportError() {
    sf.inject(
        Fault.latency(
            Fault.Route.QUERY, TestTiming.seconds(4))); // beyond the client timeout, both scaled
    assertThatThrownBy(() -> client.query(LISTING)).isInstanceOf(TransportException.class);
  }

  @Test
  void downloadStreamsTheBody() throws Exception {
    LogFileSpec f = sf.addLogFile("Login", "Hourly", HOUR, HOUR, 100);
    long bytes =
        client.download(
            client.dataPath("sobjects/EventLogFile/" + f.id() + "/LogFile"),
            in -> in.transferTo(java.io.OutputStream.nullOutputStream()));
    assertThat(bytes).isEqualTo(sf.csv(f).byteLength());
  }

  @Test
  void downloadCutMidStreamIsATransportError() {
    LogFileSpec f = sf.addLogFile("Login", "Hourly", HOUR, HOUR, 5000);
    sf.inject(Fault.cutMidStream());
    assertThatThrownBy(
            () ->
                client.download(
                    client.dataPath("sobjects/EventLogFile/" + f.id() + "/LogFile"),
                    in -> in.transferTo(java.io.OutputStream.nullOutputStream())))
        .isInstanceOf(TransportException.class);
  }

  @Test
  void missingFileIsAnHttp404() {
    assertThatThrownBy(
            () ->
                client.download(
                    client.dataPath("sobjects/EventLogFile/0ATD000000000000AAA/LogFile"),
                    InputStream::readAllBytes))
        .isInstanceOfSatisfying(
            ApiErrorException.class, e -> assertThat(e.reason()).isEqualTo("HTTP 404"));
  }

  @Test
  void everyResponseReportsTheServerDate() throws Exception {
    client.getJson(client.dataPath("limits"));
    assertThat(dates).hasSize(1);
    assertThat(Duration.between(dates.get(0), Instant.now()).abs())
        .isLessThan(Duration.ofMinutes(1));
  }

  @Test
  void getJsonReadsAnObject() throws Exception {
    assertThat(
            client.getJson(client.dataPath("limits")).path("DailyApiRequests").path("Max").asInt())
        .isEqualTo(15000);
  }

  @Test
  void errorBodyDetectionFallsBackToASubstring() {
    assertThat(SalesforceRestClient.isRequestLimitExceeded("oops REQUEST_LIMIT_EXCEEDED")).isTrue();
    assertThat(SalesforceRestClient.isRequestLimitExceeded("[{\"errorCode\":\"X\"}]")).isFalse();
  }

  @Test
  void everyCallIsCountedByOutcome() throws Exception {
    files(3);
    client.query(LISTING);
    assertThat(calls.counter("sf2loki_salesforce_api_calls", "outcome", "2xx").count())
        .isEqualTo(2.0); // two pages of two records
  }
}
