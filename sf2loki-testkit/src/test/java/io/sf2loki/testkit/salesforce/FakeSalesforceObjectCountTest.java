package io.sf2loki.testkit.salesforce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code SELECT COUNT() FROM {Obj} WHERE ...}: the rows of a window, as one call, no records. */
class FakeSalesforceObjectCountTest {

  private static final Instant T = Instant.parse("2026-06-30T00:00:00Z");

  private FakeSalesforce sf;
  private SalesforceHttp http;

  @BeforeEach
  void start() {
    sf = FakeSalesforce.builder().clientId("cid").clientSecret("shh").build();
    http = new SalesforceHttp(sf.baseUrl());
  }

  @AfterEach
  void stop() {
    sf.close();
  }

  @Test
  void aCountAnswersTheRowsInsideTheWindowAsTotalSizeWithoutRecords() throws Exception {
    sf.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    for (int i = 0; i < 5; i++) {
      sf.eventObjects().add("SetupAuditTrail", T.plusSeconds(i * 60L));
    }

    HttpResponse<String> r =
        http.query(
            "SELECT COUNT() FROM SetupAuditTrail WHERE CreatedDate >= 2026-06-30T00:01:00.000Z"
                + " AND CreatedDate < 2026-06-30T00:04:00.000Z");

    JsonNode body = Json.read(r.body());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(body.path("totalSize").asLong()).isEqualTo(3);
    assertThat(body.path("done").asBoolean()).isTrue();
    assertThat(body.path("records").size()).isZero();
  }

  @Test
  void aCountAfterAKeysetCursorLeavesOutTheRowsAtOrBeforeIt() throws Exception {
    sf.eventObjects().define("Order_Event__c", "CreatedDate", false);
    String first = sf.eventObjects().addTieGroup("Order_Event__c", T, 3).get(0);

    HttpResponse<String> r =
        http.query(
            "SELECT COUNT() FROM Order_Event__c WHERE (CreatedDate > 2026-06-30T00:00:00.000Z OR"
                + " (CreatedDate = 2026-06-30T00:00:00.000Z AND Id > '"
                + first
                + "'))");

    assertThat(Json.read(r.body()).path("totalSize").asLong()).isEqualTo(2);
  }

  @Test
  void aBigObjectRefusesTheAggregate() throws Exception {
    sf.eventObjects().define("LoginEvent", "EventDate", true);

    HttpResponse<String> r =
        http.query("SELECT COUNT() FROM LoginEvent WHERE EventDate >= 2026-06-30T00:00:00.000Z");

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("BIG_OBJECT_UNSUPPORTED_OPERATION");
  }

  @Test
  void aCountIsOneCallAgainstTheDailyLimit() throws Exception {
    sf.eventObjects().define("LoginHistory", "LoginTime", false);

    http.query("SELECT COUNT() FROM LoginHistory WHERE LoginTime >= 2026-06-30T00:00:00.000Z");

    assertThat(sf.apiUsage().used()).isEqualTo(1);
  }
}
