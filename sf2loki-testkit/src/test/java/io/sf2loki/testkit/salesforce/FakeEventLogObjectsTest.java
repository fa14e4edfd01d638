package io.sf2loki.testkit.salesforce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.testkit.time.ManualClock;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Event Log Objects: the documented query rules, the implicit 15 days, lag, ties, queryMore. */
class FakeEventLogObjectsTest {

  private static final Instant NOW = Instant.parse("2026-06-30T12:00:00Z");
  private static final String T = "2026-06-30T10:00:00.000Z";

  private final ManualClock clock = new ManualClock(NOW);
  private FakeSalesforce sf;
  private SalesforceHttp http;

  @BeforeEach
  void start() {
    sf =
        FakeSalesforce.builder()
            .clientId("cid")
            .clientSecret("shh")
            .clock(clock)
            .queryBatchSize(2000)
            .build();
    http = new SalesforceHttp(sf.baseUrl());
    sf.eventLogObjects().define("LoginEventLog", "LoginKey");
  }

  @AfterEach
  void stop() {
    sf.close();
  }

  private void visibleRow(Instant at) {
    sf.eventLogObjects().add("LoginEventLog", at, Instant.MIN, Map.of());
  }

  private HttpResponse<String> refused(String soql, String code) throws Exception {
    HttpResponse<String> r = http.query(soql);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(Json.read(r.body()).get(0).path("errorCode").asText()).isEqualTo(code);
    assertThat(sf.eventLogObjects().refusals()).isEqualTo(1);
    assertThat(sf.eventLogObjects().refusedQueries()).containsExactly(soql);
    return r;
  }

  @Test
  void describeGlobalListsTheObjectAsQueryableAndDescribeGivesItsFieldsWithoutId()
      throws Exception {
    String token = http.accessToken();
    JsonNode global = Json.read(http.get(token, "/services/data/v60.0/sobjects").body());
    JsonNode describe =
        Json.read(http.get(token, "/services/data/v60.0/sobjects/LoginEventLog/describe").body());

    List<String> queryable = new ArrayList<>();
    global
        .path("sobjects")
        .forEach(
            o -> {
              if (o.path("queryable").asBoolean()) {
                queryable.add(o.path("name").asText());
              }
            });
    List<String> fields = new ArrayList<>();
    describe.path("fields").forEach(f -> fields.add(f.path("name").asText()));
    assertThat(queryable).contains("LoginEventLog");
    assertThat(fields).contains("Timestamp", "RequestIdentifier", "LoginKey").doesNotContain("Id");
  }

  @Test
  void threeTimestampFiltersAreRefused() throws Exception {
    refused(
        "SELECT Timestamp FROM LoginEventLog WHERE Timestamp >= "
            + T
            + " AND Timestamp < "
            + T
            + " AND Timestamp <= "
            + T,
        "INVALID_QUERY_FILTER_OPERATOR");
  }

  @Test
  void aKeysetPredicateWithThreeTimestampValuesIsRefused() throws Exception {
    refused(
        "SELECT Timestamp FROM LoginEventLog WHERE (Timestamp > "
            + T
            + " OR Timestamp = "
            + T
            + ") AND Timestamp <= "
            + T,
        "INVALID_QUERY_FILTER_OPERATOR");
  }

  @Test
  void anInListOfThreeTimestampsIsRefused() throws Exception {
    refused(
        "SELECT Timestamp FROM LoginEventLog WHERE Timestamp IN (" + T + ", " + T + ", " + T + ")",
        "INVALID_QUERY_FILTER_OPERATOR");
  }

  @Test
  void offsetIsRefused() throws Exception {
    refused(
        "SELECT Timestamp FROM LoginEventLog ORDER BY Timestamp LIMIT 10 OFFSET 10",
        "MALFORMED_QUERY");
  }

  @Test
  void notEqualsIsRefused() throws Exception {
    refused(
        "SELECT Timestamp FROM LoginEventLog WHERE Status != 'Failed'",
        "INVALID_QUERY_FILTER_OPERATOR");
  }

  @Test
  void aRelationshipFieldIsRefused() throws Exception {
    refused("SELECT User.Name FROM LoginEventLog", "MALFORMED_QUERY");
  }

  @Test
  void theIdFieldDoesNotExist() throws Exception {
    refused("SELECT Id FROM LoginEventLog ORDER BY Timestamp", "INVALID_FIELD");
  }

  @Test
  void aWindowOverFifteenDaysIsRefusedAndExactlyFifteenIsServed() throws Exception {
    refused(
        "SELECT Timestamp FROM LoginEventLog WHERE Timestamp >= 2026-06-01T00:00:00.000Z"
            + " AND Timestamp < 2026-06-16T00:00:00.001Z",
        "MALFORMED_QUERY");

    HttpResponse<String> ok =
        http.query(
            "SELECT Timestamp FROM LoginEventLog WHERE Timestamp >= 2026-06-01T00:00:00.000Z"
                + " AND Timestamp < 2026-06-16T00:00:00.000Z");
    assertThat(ok.statusCode()).isEqualTo(200);
  }

  @Test
  void withoutATimestampFilterOnlyTheLastFifteenDaysAreRead() throws Exception {
    visibleRow(NOW.minus(Duration.ofDays(16)));
    visibleRow(NOW.minus(Duration.ofDays(14)));

    JsonNode body = Json.read(http.query("SELECT Timestamp FROM LoginEventLog").body());

    assertThat(body.path("totalSize").asInt()).isEqualTo(1);
    assertThat(body.path("records").get(0).path("Timestamp").asText()).startsWith("2026-06-16");
  }

  @Test
  void aLowerBoundAloneReadsFifteenDaysForward() throws Exception {
    Instant from = NOW.minus(Duration.ofDays(29));
    visibleRow(from.plus(Duration.ofDays(1)));
    visibleRow(from.plus(Duration.ofDays(16)));

    JsonNode body =
        Json.read(
            http.query(
                    "SELECT Timestamp FROM LoginEventLog WHERE Timestamp >= "
                        + Json.sfDate(from).replace("+0000", "Z"))
                .body());

    assertThat(body.path("totalSize").asInt()).isEqualTo(1);
  }

  @Test
  void anUpperBoundAloneReadsFifteenDaysBack() throws Exception {
    Instant to = NOW.minus(Duration.ofDays(1));
    visibleRow(to.minus(Duration.ofDays(2)));
    visibleRow(to.minus(Duration.ofDays(16)));

    JsonNode body =
        Json.read(
            http.query(
                    "SELECT Timestamp FROM LoginEventLog WHERE Timestamp < "
                        + Json.sfDate(to).replace("+0000", "Z"))
                .body());

    assertThat(body.path("totalSize").asInt()).isEqualTo(1);
  }

  @Test
  void aRowBecomesVisibleOnlyAfterItsLagOfAtMostFortyFiveMinutes() throws Exception {
    Instant at = NOW.minusSeconds(1);
    for (int i = 0; i < 50; i++) {
      sf.eventLogObjects().add("LoginEventLog", at, Map.of());
    }
    String soql = "SELECT Timestamp FROM LoginEventLog WHERE Timestamp = 2026-06-30T11:59:59.000Z";

    int early = Json.read(http.query(soql).body()).path("totalSize").asInt();
    clock.advance(Duration.ofMinutes(20));
    int later = Json.read(http.query(soql).body()).path("totalSize").asInt();
    clock.advance(Duration.ofMinutes(25));
    int all = Json.read(http.query(soql).body()).path("totalSize").asInt();

    assertThat(early).isLessThan(later);
    assertThat(later).isLessThan(50);
    assertThat(all).isEqualTo(50);
  }

  @Test
  void aTieOfThousandsOnOneMillisecondIsServedThroughQueryMoreLocators() throws Exception {
    Instant at = Instant.parse(T);
    for (int i = 0; i < 5000; i++) {
      sf.eventLogObjects().add("LoginEventLog", at, Instant.MIN, Map.of());
    }
    String token = http.accessToken();

    JsonNode page =
        Json.read(
            http.query(
                    "SELECT RequestIdentifier FROM LoginEventLog WHERE Timestamp = "
                        + T
                        + " ORDER BY Timestamp")
                .body());
    List<String> ids = new ArrayList<>();
    page.path("records").forEach(r -> ids.add(r.path("RequestIdentifier").asText()));
    while (!page.path("done").asBoolean()) {
      page = Json.read(http.get(token, page.path("nextRecordsUrl").asText()).body());
      page.path("records").forEach(r -> ids.add(r.path("RequestIdentifier").asText()));
    }

    assertThat(ids).hasSize(5000).doesNotHaveDuplicates();
  }

  @Test
  void rowsOfOneMillisecondComeBackInADifferentOrderOnEachQuery() throws Exception {
    for (int i = 0; i < 20; i++) {
      visibleRow(Instant.parse(T));
    }
    String soql = "SELECT RequestIdentifier FROM LoginEventLog WHERE Timestamp = " + T;

    String first = Json.read(http.query(soql).body()).path("records").toString();
    String second = Json.read(http.query(soql).body()).path("records").toString();

    assertThat(first).isNotEqualTo(second);
  }

  @Test
  void withoutTheObjectPermissionQueryAndDescribeAnswerInsufficientAccess() throws Exception {
    sf.eventLogObjects().revokeAccess();

    HttpResponse<String> query = http.query("SELECT Timestamp FROM LoginEventLog");
    HttpResponse<String> describe =
        http.get(http.accessToken(), "/services/data/v60.0/sobjects/LoginEventLog/describe");

    assertThat(query.statusCode()).isEqualTo(403);
    assertThat(query.body()).contains("INSUFFICIENT_ACCESS");
    assertThat(describe.statusCode()).isEqualTo(403);
    assertThat(sf.eventLogObjects().refusals()).isZero();
  }

  @Test
  void aValidTwoBoundWindowQueryIsServedWithoutRefusal() throws Exception {
    visibleRow(Instant.parse(T));

    HttpResponse<String> r =
        http.query(
            "SELECT FIELDS(ALL) FROM LoginEventLog WHERE Timestamp >= "
                + T
                + " AND Timestamp < 2026-06-30T10:00:00.001Z ORDER BY Timestamp ASC LIMIT 200");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(Json.read(r.body()).path("records").get(0).path("LoginKey").asText())
        .startsWith("LoginKey-");
    assertThat(sf.eventLogObjects().refusals()).isZero();
  }

  @Test
  void countAnswersTheTotalOfTheRangeUnderTheSameRules() throws Exception {
    visibleRow(Instant.parse("2026-06-30T09:00:00Z"));
    visibleRow(Instant.parse("2026-06-30T10:00:00Z"));
    visibleRow(Instant.parse("2026-06-30T11:00:00Z"));

    HttpResponse<String> r =
        http.query(
            "SELECT COUNT() FROM LoginEventLog WHERE Timestamp >= "
                + T
                + " AND Timestamp < 2026-06-30T11:00:00.000Z");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(Json.read(r.body()).path("totalSize").asLong()).isEqualTo(1);
    refused(
        "SELECT COUNT() FROM LoginEventLog WHERE Timestamp >= 2026-06-01T00:00:00.000Z"
            + " AND Timestamp < "
            + T,
        "MALFORMED_QUERY");
  }
}
