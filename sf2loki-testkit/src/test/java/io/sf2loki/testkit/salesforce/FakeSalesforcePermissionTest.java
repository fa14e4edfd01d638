package io.sf2loki.testkit.salesforce;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a user may see: View Event Log Files, and which event objects are queryable. */
class FakeSalesforcePermissionTest {

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
  void describingEventLogFileWithoutViewEventLogFilesIsForbidden() throws Exception {
    String path = "/services/data/v60.0/sobjects/EventLogFile/describe";
    assertThat(http.get(http.accessToken(), path).statusCode()).isEqualTo(200);

    sf.revokeEventLogFileAccess();

    HttpResponse<String> denied = http.get(http.accessToken(), path);
    assertThat(denied.statusCode()).isEqualTo(403);
    assertThat(denied.body()).contains("INSUFFICIENT_ACCESS");
  }

  @Test
  void aProbeOfADefinedObjectAnswersAtMostItsLimit() throws Exception {
    sf.eventObjects().define("LoginEvent", "EventDate", true);
    sf.eventObjects().add("LoginEvent", Instant.parse("2026-06-30T00:00:00Z"));
    sf.eventObjects().add("LoginEvent", Instant.parse("2026-06-30T00:00:01Z"));

    HttpResponse<String> r = http.query("SELECT Id FROM LoginEvent LIMIT 1");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(Json.read(r.body()).path("records").size()).isEqualTo(1);
  }

  @Test
  void aProbeOfAnObjectTheUserCannotSeeIsInvalidType() throws Exception {
    HttpResponse<String> r = http.query("SELECT Id FROM ApiEvent LIMIT 1");

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("INVALID_TYPE");
  }
}
