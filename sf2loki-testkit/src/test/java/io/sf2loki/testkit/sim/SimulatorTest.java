package io.sf2loki.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {

  private final HttpClient http = HttpClient.newHttpClient();

  private static SimulatorOptions ephemeral(String... extra) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "--salesforce-port",
                "0",
                "--loki-port",
                "0",
                "--pubsub-port",
                "0",
                "--otlp-port",
                "0"));
    args.addAll(List.of(extra));
    return SimulatorOptions.parse(args);
  }

  @Test
  void optionsDefaultToTheDemoPortsAndRejectUnknownOnes() {
    SimulatorOptions defaults = SimulatorOptions.parse(List.of());
    assertThat(defaults.salesforcePort()).isEqualTo(18080);
    assertThat(defaults.lokiPort()).isEqualTo(13100);
    assertThat(defaults.pubsubPort()).isEqualTo(17443);
    assertThat(defaults.otlpPort()).isEqualTo(14318);
    SimulatorOptions custom =
        SimulatorOptions.parse(
            List.of(
                "--seed",
                "7",
                "--period",
                "500ms",
                "--event-types",
                "A,B",
                "--pubsub-period",
                "2s"));
    assertThat(custom.seed()).isEqualTo(7);
    assertThat(custom.period()).isEqualTo(Duration.ofMillis(500));
    assertThat(custom.eventTypes()).containsExactly("A", "B");
    assertThat(custom.pubsubPeriod()).isEqualTo(Duration.ofSeconds(2));
    assertThatThrownBy(() -> SimulatorOptions.parse(List.of("--pubsub-period", "0s")))
        .hasMessageContaining("--pubsub-period must be positive");
    assertThatThrownBy(() -> SimulatorOptions.parse(List.of("--salesforce-port", "70000")))
        .hasMessageContaining("--salesforce-port must be 0..65535");
    assertThatThrownBy(() -> SimulatorOptions.parse(List.of("--bogus", "1")))
        .hasMessageContaining("unknown option --bogus");
  }

  @Test
  void ephemeralPortsAreReportedWithTheCredentialsADaemonNeeds() throws Exception {
    try (Simulator sim = Simulator.start(ephemeral())) {
      String described = String.join("\n", sim.describe());
      assertThat(described)
          .contains("salesforce.login_url     = \"" + sim.salesforce().baseUrl() + "\"")
          .contains("sink.loki.url            = \"" + sim.loki().baseUri() + "\"")
          .contains("sources.pubsub.endpoint  = \"" + sim.pubsub().target() + "\"")
          .contains("sources.pubsub.plaintext = true")
          .contains("plaintext gRPC on port " + sim.pubsub().uri().getPort())
          .contains("client_id     = \"sf2loki-demo\"")
          .contains("client_secret = \"demo-secret\"");
      HttpResponse<String> token =
          http.send(
              HttpRequest.newBuilder(sim.salesforce().baseUrl().resolve("/services/oauth2/token"))
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "grant_type=client_credentials&client_id=sf2loki-demo"
                              + "&client_secret=demo-secret"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(token.statusCode()).isEqualTo(200);
      assertThat(token.body()).contains("access_token");
    }
  }

  @Test
  void pubsubTrickleKeepsPublishingLoginsOrdersAndAccountChanges() {
    try (Simulator sim = Simulator.start(ephemeral("--pubsub-period", "10ms"))) {
      List<String> topics = List.of(FakePubSub.LOGIN, FakePubSub.ORDER, FakePubSub.ACCOUNT_CHANGE);
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> topics.stream().allMatch(t -> sim.pubsub().stored(t) >= 3));
      assertThat(sim.published().keySet()).containsExactlyInAnyOrderElementsOf(topics);
      assertThat(sim.pubsub().stored(FakePubSub.REPORT)).isZero();
    }
  }

  @Test
  void activityKeepsProducingFilesWhoseRowsLieInThePast() {
    try (Simulator sim =
        Simulator.start(ephemeral("--period", "200ms", "--event-types", "Login"))) {
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> sim.salesforce().logFile("0ATD00000000003AAA").isPresent());
      var spec = sim.salesforce().logFile("0ATD00000000003AAA").orElseThrow();
      var csv = sim.salesforce().csv(spec);
      assertThat(csv.rowTime(spec.rows() - 1)).isBefore(Instant.now());
      assertThat(spec.eventType()).isEqualTo("Login");
    }
  }

  @Test
  void theSameSeedRegeneratesTheSameRowsAndAnotherSeedDiffers() {
    List<String> first;
    List<String> same;
    List<String> other;
    try (Simulator a = Simulator.start(ephemeral("--seed", "3", "--period", "1m"))) {
      first = firstRow(a);
    }
    try (Simulator b = Simulator.start(ephemeral("--seed", "3", "--period", "1m"))) {
      same = firstRow(b);
    }
    try (Simulator c = Simulator.start(ephemeral("--seed", "4", "--period", "1m"))) {
      other = firstRow(c);
    }
    assertThat(same.subList(2, 5)).isEqualTo(first.subList(2, 5));
    assertThat(other.subList(2, 5)).isNotEqualTo(first.subList(2, 5));
  }

  private static List<String> firstRow(Simulator sim) {
    await()
        .atMost(TestTiming.seconds(10))
        .until(() -> sim.salesforce().logFile("0ATD00000000001AAA").isPresent());
    var spec = sim.salesforce().logFile("0ATD00000000001AAA").orElseThrow();
    return sim.salesforce().csv(spec).cells(0);
  }

  @Test
  void reportSummarisesWhatTheFakeLokiHolds() throws Exception {
    try (Simulator sim = Simulator.start(ephemeral("--period", "1m"))) {
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> sim.salesforce().logFile("0ATD00000000004AAA").isPresent());
      long nanos = Instant.now().toEpochMilli() * 1_000_000L;
      String push =
          "{\"streams\":[{\"stream\":{\"job\":\"sf2loki\",\"source\":\"eventlogfile\","
              + "\"event_type\":\"Login\"},"
              + "\"values\":[[\""
              + nanos
              + "\",\"{\\\"USER\\\":\\\"a\\\"}\"]]}]}";
      HttpResponse<String> pushed =
          http.send(
              HttpRequest.newBuilder(sim.loki().pushUri())
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(push))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(pushed.statusCode()).isEqualTo(204);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int code =
          Report.run(
              List.of(
                  "--loki-url",
                  sim.loki().baseUri().toString(),
                  "--salesforce-url",
                  URI.create(sim.salesforce().baseUrl().toString()).toString()),
              new PrintStream(out, true, StandardCharsets.UTF_8),
              System.err);
      assertThat(code).isZero();
      assertThat(out.toString(StandardCharsets.UTF_8))
          .contains("fake Loki: 1 stream(s), 1 entries")
          .contains("Login  {\"USER\":\"a\"}")
          .containsPattern("by source:\n  eventlogfile: +1 entries \\(Login 1\\)")
          .contains("fake Salesforce: generated 4 EventLogFile(s), 80 rows so far");
    }
  }

  @Test
  void reportSummarisesWhatTheFakeOtlpReceiverHoldsAsLokiWouldIndexIt() throws Exception {
    try (Simulator sim = Simulator.start(ephemeral("--period", "1m"))) {
      String export =
          "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
              + "\"value\":{\"stringValue\":\"salesforce\"}}]},\"scopeLogs\":[{\"logRecords\":"
              + "[{\"body\":{\"stringValue\":\"{\\\"USER\\\":\\\"a\\\"}\"},\"attributes\":["
              + "{\"key\":\"source\",\"value\":{\"stringValue\":\"eventlogfile\"}},"
              + "{\"key\":\"event_type\",\"value\":{\"stringValue\":\"Login\"}}]}]}]}]}";
      HttpResponse<String> exported =
          http.send(
              HttpRequest.newBuilder(sim.otlp().uri().resolve("/otlp/v1/logs"))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(export))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(exported.statusCode()).isEqualTo(200);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int code =
          Report.run(
              List.of("--otlp-url", sim.otlp().uri().toString()),
              new PrintStream(out, true, StandardCharsets.UTF_8),
              System.err);
      assertThat(code).isZero();
      assertThat(out.toString(StandardCharsets.UTF_8))
          .contains("fake OTLP receiver")
          .contains("1 stream(s), 1 entries")
          .contains("Login  {\"USER\":\"a\"}")
          .containsPattern("by source:\n  eventlogfile: +1 entries \\(Login 1\\)");
    }
  }
}
