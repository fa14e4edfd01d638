package io.sf2loki.testkit.salesforce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The listing of every event type in one query, and schema changes between files. */
class FakeSalesforceListingTest {

  private static final Instant HOUR = Instant.parse("2026-06-30T00:00:00Z");
  private static final String SELECT =
      "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence,"
          + "LogFileFieldNames,LogFileFieldTypes FROM EventLogFile WHERE Interval='Hourly' AND ";

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

  private LogFileSpec file(String type, int minute) {
    return sf.addLogFile(type, "Hourly", HOUR, HOUR.plusSeconds(60L * minute), 2);
  }

  private HttpResponse<String> query(String soql) throws Exception {
    return http.get(
        token, "/services/data/v60.0/query?q=" + URLEncoder.encode(soql, StandardCharsets.UTF_8));
  }

  private List<String> ids(String soql) throws Exception {
    HttpResponse<String> r = query(soql);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    List<String> out = new ArrayList<>();
    Json.read(r.body()).path("records").forEach(rec -> out.add(rec.path("Id").asText()));
    return out;
  }

  @Test
  void eachTypeIsListedFromItsOwnLowerBoundInOneCreatedDateIdOrder() throws Exception {
    LogFileSpec login1 = file("Login", 1);
    LogFileSpec api1 = file("API", 2);
    LogFileSpec login2 = file("Login", 3);
    LogFileSpec api2 = file("API", 4);
    file("URI", 5);

    List<String> ids =
        ids(
            SELECT
                + "((CreatedDate >= 2026-06-30T00:03:00.000Z AND EventType='Login')"
                + " OR (CreatedDate >= 2026-06-30T00:00:00.000Z AND EventType IN ('API')))"
                + " ORDER BY CreatedDate, Id LIMIT 1000");

    assertThat(ids).containsExactly(api1.id(), login2.id(), api2.id());
    assertThat(login1.id()).isNotIn(ids);
  }

  @Test
  void aNotInTermListsTheTypesTheQueryDoesNotName() throws Exception {
    file("Login", 1);
    LogFileSpec api = file("API", 2);
    LogFileSpec uri = file("URI", 3);

    List<String> ids =
        ids(
            SELECT
                + "((CreatedDate >= 2026-06-30T00:00:00.000Z AND EventType NOT IN ('Login')))"
                + " ORDER BY CreatedDate, Id LIMIT 1000");

    assertThat(ids).containsExactly(api.id(), uri.id());
  }

  @Test
  void theKeysetContinuationStartsAfterTheLastListedFileAndUntilIsExclusive() throws Exception {
    LogFileSpec a = file("Login", 1);
    LogFileSpec b = sf.addLogFile("API", "Hourly", HOUR, a.createdDate(), 2); // same CreatedDate
    LogFileSpec c = file("Login", 2);
    file("Login", 3);
    String after = "2026-06-30T00:01:00.000Z";

    List<String> ids =
        ids(
            SELECT
                + "((CreatedDate >= 2026-06-30T00:00:00.000Z)) AND CreatedDate <"
                + " 2026-06-30T00:03:00.000Z AND (CreatedDate > "
                + after
                + " OR (CreatedDate = "
                + after
                + " AND Id > '"
                + a.id()
                + "')) ORDER BY CreatedDate, Id LIMIT 1000");

    assertThat(ids).containsExactly(b.id(), c.id());
  }

  @Test
  void listedRecordsCarryTheFilesFieldNamesAndTypes() throws Exception {
    file("Login", 1);

    JsonNode record =
        Json.read(
                query(
                        SELECT
                            + "((CreatedDate >= 2026-06-30T00:00:00.000Z))"
                            + " ORDER BY CreatedDate, Id LIMIT 10")
                    .body())
            .path("records")
            .get(0);

    assertThat(record.path("LogFileFieldNames").asText())
        .isEqualTo(String.join(",", LogFileSchema.STANDARD.names()));
    assertThat(record.path("LogFileFieldTypes").asText()).startsWith("String,String,String,Id,");
  }

  @Test
  void aTermThatIsNotOfTheShapeIsAMalformedQuery() throws Exception {
    HttpResponse<String> r =
        query(SELECT + "((CreatedDate >= yesterday)) ORDER BY CreatedDate, Id LIMIT 10");

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("MALFORMED_QUERY");
  }

  @Test
  void aSchemaChangeGivesLaterFilesOfTheTypeTheNewColumnsInHeaderListingAndRows() throws Exception {
    LogFileSpec before = file("Login", 1);
    LogFileSchema changed =
        LogFileSchema.STANDARD
            .plus("LOGIN_KEY", "String")
            .minus("URI")
            .retyped("RUN_TIME", "String");
    sf.changeSchema("Login", HOUR.plusSeconds(120), changed);
    LogFileSpec after = file("Login", 2);
    LogFileSpec otherType = file("API", 3);

    assertThat(sf.schemaOf(before)).isEqualTo(LogFileSchema.STANDARD);
    assertThat(sf.schemaOf(after)).isEqualTo(changed);
    assertThat(sf.schemaOf(otherType)).isEqualTo(LogFileSchema.STANDARD);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    sf.csv(after).write(body);
    String header = body.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
    assertThat(header).contains("\"LOGIN_KEY\"").doesNotContain("\"URI\"");
    assertThat(sf.csv(after).expectedRow(0)).containsEntry("LOGIN_KEY", "login_key-0");
    assertThat(http.download(token, SalesforceHttp.logFilePath(after)))
        .isEqualTo(body.size())
        .isEqualTo(sf.csv(after).byteLength());
  }
}
