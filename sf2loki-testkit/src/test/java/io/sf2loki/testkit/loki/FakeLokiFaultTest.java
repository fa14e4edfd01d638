package io.sf2loki.testkit.loki;

import static io.sf2loki.testkit.loki.FakeLokiIngestTest.NOW_NANOS;
import static io.sf2loki.testkit.loki.WireBodies.json;
import static io.sf2loki.testkit.loki.WireBodies.postJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.testkit.ScaledTimeout;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@ScaledTimeout(seconds = 10)
class FakeLokiFaultTest {

  final FakeLoki loki = FakeLokiIngestTest.startFake(LokiLimits.defaults());

  @AfterEach
  void close() {
    loki.close();
  }

  String body(String line) {
    return json("{\"a\":\"b\"}", NOW_NANOS, line);
  }

  @Test
  void statusFaultAppliesToTheNextCountPushesWithRetryAfter() throws Exception {
    loki.addFault(Fault.status(429, "3", 2));

    HttpResponse<String> first = postJson(loki, body("1"));
    HttpResponse<String> second = postJson(loki, body("2"));
    HttpResponse<String> third = postJson(loki, body("3"));

    assertThat(first.statusCode()).isEqualTo(429);
    assertThat(first.headers().firstValue("Retry-After")).contains("3");
    assertThat(second.statusCode()).isEqualTo(429);
    assertThat(third.statusCode()).isEqualTo(204);
    assertThat(loki.lines()).containsExactly("3");
  }

  @Test
  void resetFaultDropsTheConnectionWithoutAResponse() {
    loki.addFault(Fault.reset(1));

    assertThatThrownBy(() -> postJson(loki, body("x".repeat(10_000))))
        .isInstanceOf(IOException.class);
    assertThat(loki.pushes()).extracting(RecordedPush::status).containsExactly(OptionalInt.empty());
    assertThat(loki.entries()).isEmpty();
  }

  @Test
  void lostAnswerFaultStoresThePushButDropsTheConnectionInsteadOfAnswering() {
    loki.addFault(Fault.lostAnswer(1));

    assertThatThrownBy(() -> postJson(loki, body("landed"))).isInstanceOf(IOException.class);
    assertThat(loki.lines()).containsExactly("landed");
    assertThat(loki.pushes()).extracting(RecordedPush::status).containsExactly(OptionalInt.empty());
  }

  @Test
  void aPushRetriedAfterALostAnswerIsDroppedAsAnExactDuplicate() throws Exception {
    post("{\"lost_answer\": true}");
    assertThatThrownBy(() -> postJson(loki, body("again"))).isInstanceOf(IOException.class);

    HttpResponse<String> retry = postJson(loki, body("again"));

    assertThat(retry.statusCode()).isEqualTo(204);
    assertThat(loki.lines()).containsExactly("again");
    assertThat(loki.stats().duplicates()).isEqualTo(1);
  }

  @Test
  void latencyFaultDelaysTheResponseButStoresThePush() throws Exception {
    loki.addFault(Fault.latency(Duration.ofMillis(300), 1));
    long start = System.nanoTime();

    HttpResponse<String> r = postJson(loki, body("slow"));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(250));
    assertThat(r.statusCode()).isEqualTo(204);
    assertThat(loki.lines()).containsExactly("slow");
  }

  @Test
  void statusFaultWithLatencyWaitsThenAnswersWithoutStoring() throws Exception {
    post("{\"status\": 503, \"latency_ms\": 300}");
    long start = System.nanoTime();

    HttpResponse<String> r = postJson(loki, body("late"));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(250));
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(loki.entries()).isEmpty();
  }

  @Test
  void aJsonFaultNamingNoFaultOrTwoThatExcludeEachOtherIsRefused() throws Exception {
    assertThat(postFault("{}").statusCode()).isEqualTo(400);
    assertThat(postFault("{\"count\": 2}").statusCode()).isEqualTo(400);
    assertThat(postFault("{\"reset\": true, \"status\": 500}").statusCode()).isEqualTo(400);
    assertThat(postFault("{\"retry_after\": \"1\"}").statusCode()).isEqualTo(400);
    assertThat(postFault("{\"lost_answer\": true, \"status\": 500}").statusCode()).isEqualTo(400);
    assertThat(postFault("{\"status\": 0}").body()).contains("not an HTTP status");
    assertThat(loki.pendingFaults()).isZero();
  }

  @Test
  void pendingFaultsCountsThePushesStillToBeHit() throws Exception {
    loki.inject(Fault.status(500, 2));
    loki.inject(Fault.disconnectMidBody(1));
    assertThat(loki.pendingFaults()).isEqualTo(3);

    postJson(loki, body("x"));

    assertThat(loki.pendingFaults()).isEqualTo(2);
  }

  @Test
  void faultsStrikeInTheOrderQueued() throws Exception {
    loki.inject(Fault.status(503, 1));
    loki.inject(Fault.latency(Duration.ZERO, 1));
    loki.inject(Fault.status(429, 1));

    assertThat(postJson(loki, body("1")).statusCode()).isEqualTo(503);
    assertThat(postJson(loki, body("2")).statusCode()).isEqualTo(204);
    assertThat(postJson(loki, body("3")).statusCode()).isEqualTo(429);
    assertThat(loki.lines()).containsExactly("2");
  }

  @Test
  void aFaultNamesARealStatusAndAtLeastOnePush() {
    assertThatThrownBy(() -> Fault.status(0, 1)).hasMessageContaining("not an HTTP status");
    assertThatThrownBy(() -> Fault.latency(Duration.ofMillis(-1), 1))
        .hasMessageContaining("negative");
    assertThatThrownBy(() -> Fault.disconnectMidBody(0)).hasMessageContaining("at least 1");
    assertThatThrownBy(() -> Fault.lostAnswer(0)).hasMessageContaining("at least 1");
  }

  @Test
  void entryRejection400StoresTheRestOfTheRequest() throws Exception {
    loki.rejectEntries(new EntryRejection("POISON", 400));
    String request =
        "{\"streams\":[{\"stream\":{\"a\":\"b\"},\"values\":[[\""
            + NOW_NANOS
            + "\",\"ok\"],[\""
            + (NOW_NANOS + 1)
            + "\",\"POISON\"]]}]}";

    HttpResponse<String> r = postJson(loki, request);

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(loki.lines()).containsExactly("ok");
  }

  @Test
  void entryRejection413StoresNothing() throws Exception {
    loki.rejectEntries(new EntryRejection("BIG", 413));

    assertThat(postJson(loki, body("BIG one")).statusCode()).isEqualTo(413);
    assertThat(postJson(loki, body("fine")).statusCode()).isEqualTo(204);
    assertThat(loki.lines()).containsExactly("fine");
  }

  @Test
  void faultsCanBeScriptedAndClearedOverHttp() throws Exception {
    post("{\"status\": 500, \"count\": 3}");
    assertThat(postJson(loki, body("x")).statusCode()).isEqualTo(500);

    HttpResponse<String> cleared =
        WireBodies.HTTP.send(
            HttpRequest.newBuilder(loki.baseUri().resolve("/testkit/faults")).DELETE().build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(cleared.statusCode()).isEqualTo(204);
    assertThat(postJson(loki, body("x")).statusCode()).isEqualTo(204);
  }

  @Test
  void httpEntriesAndStatsHaveTheDocumentedShapes() throws Exception {
    postJson(loki, body("hello"));

    String entries = WireBodies.get(loki.baseUri().resolve("/testkit/entries")).body();
    JsonNode entry = LokiControl.JSON.readTree(entries.lines().findFirst().orElseThrow());
    JsonNode stats =
        LokiControl.JSON.readTree(WireBodies.get(loki.baseUri().resolve("/testkit/stats")).body());

    assertThat(entry.get("labels").get("a").asText()).isEqualTo("b");
    assertThat(entry.get("timestamp").asText()).isEqualTo(Long.toString(NOW_NANOS));
    assertThat(entry.get("line").asText()).isEqualTo("hello");
    assertThat(entry.get("structured_metadata").get("level").asText()).isEqualTo("info");
    assertThat(stats.properties().stream().map(java.util.Map.Entry::getKey).toList())
        .containsExactly("streams", "entries", "bytes", "duplicates", "rejected");
    assertThat(stats.get("entries").asLong()).isEqualTo(1);
  }

  private void post(String faultJson) throws Exception {
    assertThat(postFault(faultJson).statusCode()).isEqualTo(204);
  }

  private HttpResponse<String> postFault(String faultJson) throws Exception {
    return WireBodies.HTTP.send(
        HttpRequest.newBuilder(loki.uri().resolve("/testkit/faults"))
            .POST(HttpRequest.BodyPublishers.ofString(faultJson))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
