package io.sf2loki.daemon.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DeliveryAuditTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final FakeSalesforce salesforce = FakeSalesforce.builder().build();
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
  private final LogFileSpec file =
      salesforce.addLogFile("API", "Hourly", now.minus(1, ChronoUnit.HOURS), now, 3);
  private FakeLoki loki;
  private String record;

  @BeforeEach
  void start() throws IOException {
    loki = FakeLoki.start();
    salesforce.eventObjects().define("LoginHistory", "LoginTime", false);
    record = salesforce.eventObjects().add("LoginHistory", now);
  }

  @AfterEach
  void close() {
    salesforce.close();
    loki.close();
  }

  private DeliveryAudit audit() {
    return new DeliveryAudit(
        salesforce, List.of(file), salesforce.eventObjects().rows("LoginHistory"));
  }

  /** Pushes the entry sf2loki would ship for row {@code i} of the file, at {@code nanos}. */
  private void pushRow(long i, long nanos) throws Exception {
    Map<String, String> row = salesforce.csv(file).expectedRow(i);
    ObjectNode line = JSON.createObjectNode();
    row.forEach(line::put);
    push("API", nanos, JSON.writeValueAsString(line));
  }

  private void pushRecord(long nanos) throws Exception {
    push("LoginHistory", nanos, "{\"Id\":\"" + record + "\",\"Status\":\"Success\"}");
  }

  private void push(String eventType, long nanos, String line) throws Exception {
    ObjectNode stream = JSON.createObjectNode();
    stream.putObject("stream").put("event_type", eventType);
    stream.putArray("values").addArray().add(Long.toString(nanos)).add(line);
    ObjectNode body = JSON.createObjectNode();
    body.putArray("streams").add(stream);
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(loki.pushUri())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
  }

  private long nanos(int offsetMillis) {
    return now.plusMillis(offsetMillis).toEpochMilli() * 1_000_000L;
  }

  @Test
  void everyGeneratedRowAndRecordHeldByLokiIsDelivered() throws Exception {
    for (int i = 0; i < 3; i++) {
      pushRow(i, nanos(i));
    }
    pushRecord(nanos(0));

    DeliveryAudit.Delivery d = audit().result(loki);

    assertThat(d.events()).isEqualTo(4);
    assertThat(d.lost()).isZero();
    assertThat(d.storedTwice()).isZero();
    assertThat(d.resent()).isZero();
  }

  @Test
  void aGeneratedRowLokiDoesNotHoldIsLost() throws Exception {
    pushRow(0, nanos(0));
    pushRow(2, nanos(2));
    pushRecord(nanos(0));

    DeliveryAudit.Delivery d = audit().result(loki);

    assertThat(d.lost()).isEqualTo(1);
    assertThat(d.lostSample())
        .containsExactly(
            "EventLogFile API " + salesforce.csv(file).expectedRow(1).get("REQUEST_ID"));
  }

  @Test
  void aRowReSentIdenticallyIsDroppedByLokiAndCountedAsReSentNotStoredTwice() throws Exception {
    pushRow(0, nanos(0));
    pushRow(0, nanos(0));

    DeliveryAudit.Delivery d = audit().result(loki);

    assertThat(d.resent()).isEqualTo(1);
    assertThat(d.storedTwice()).isZero();
  }

  @Test
  void aRowStoredUnderTwoTimestampsIsStoredTwice() throws Exception {
    pushRecord(nanos(0));
    pushRecord(nanos(5));

    assertThat(audit().result(loki).storedTwice()).isEqualTo(1);
  }

  @Test
  void theAuditCanBeAskedAgainWhileEntriesArrive() throws Exception {
    DeliveryAudit audit = audit();
    assertThat(audit.missing(loki)).hasSize(4);

    pushRecord(nanos(0));

    assertThat(audit.missing(loki)).hasSize(3).noneMatch(k -> k.contains(record));
  }
}
