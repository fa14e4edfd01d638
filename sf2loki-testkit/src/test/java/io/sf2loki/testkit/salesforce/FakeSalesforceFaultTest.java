package io.sf2loki.testkit.salesforce;

import static io.sf2loki.testkit.salesforce.SalesforceHttp.logFilePath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.testkit.ScaledTimeout;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Scripted faults strike the routes they are aimed at, in the order queued. */
@ScaledTimeout(seconds = 10)
class FakeSalesforceFaultTest {

  private static final Instant HOUR = Instant.parse("2026-06-30T00:00:00Z");
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
  void aCutAimedAtAnyRouteWaitsForADownloadItCanCut() throws Exception {
    LogFileSpec f = sf.addLogFile("Login", "Hourly", HOUR, HOUR, 2000);
    assertThat(http.scheduleFault("{\"route\":\"any\",\"kind\":\"cut_mid_stream\"}").statusCode())
        .isEqualTo(201);

    String token = http.accessToken();

    assertThatThrownBy(() -> http.download(token, logFilePath(f))).isInstanceOf(IOException.class);
    assertThat(sf.stats().downloadsCompleted(f.id())).isZero();
  }

  @Test
  void aFaultForOneRouteIsFoundBehindAFaultForAnother() throws Exception {
    LogFileSpec f = sf.addLogFile("Login", "Hourly", HOUR, HOUR, 10);
    String token = http.accessToken();
    sf.inject(Fault.serverError(Fault.Route.LOGFILE));
    sf.inject(Fault.invalidSession(Fault.Route.TOKEN));

    assertThat(http.token().statusCode()).isEqualTo(401);
    assertThat(http.get(token, logFilePath(f)).statusCode()).isEqualTo(500);
    assertThat(http.get(token, logFilePath(f)).statusCode()).isEqualTo(200);
  }

  @Test
  void aFaultStrikesItsNumberOfRequestsThenTheRouteServes() throws Exception {
    sf.inject(Fault.serverError(Fault.Route.TOKEN).times(2));
    assertThat(sf.pendingFaults()).isEqualTo(2);

    assertThat(http.token().statusCode()).isEqualTo(500);
    assertThat(http.token().statusCode()).isEqualTo(500);
    assertThat(http.token().statusCode()).isEqualTo(200);
    assertThat(sf.pendingFaults()).isZero();
  }

  @Test
  void aMalformedAnswerIsA200TheRouteDoesNotPromise() throws Exception {
    sf.inject(Fault.malformed(Fault.Route.TOKEN, Fault.Kind.NON_JSON));
    sf.inject(Fault.malformed(Fault.Route.TOKEN, Fault.Kind.JSON_ARRAY));

    assertThat(http.token().body()).startsWith("<html>");
    assertThat(http.token().body()).startsWith("[");
  }

  @Test
  void clearFaultsForgetsEveryQueuedFault() throws Exception {
    sf.inject(Fault.serverError(Fault.Route.ANY).times(3));

    sf.clearFaults();

    assertThat(sf.pendingFaults()).isZero();
    assertThat(http.token().statusCode()).isEqualTo(200);
  }

  @Test
  void aFaultThatCouldNeverStrikeIsRefused() {
    assertThatThrownBy(() -> new Fault.CutMidStream(Fault.Route.QUERY, 1))
        .hasMessageContaining("only a LogFile download can be cut");
    assertThatThrownBy(() -> Fault.malformed(Fault.Route.QUERY, Fault.Kind.LATENCY))
        .hasMessageContaining("NON_JSON, JSON_ARRAY or WRONG_SHAPE");
    assertThatThrownBy(() -> Fault.status(Fault.Route.QUERY, 0, ""))
        .hasMessageContaining("not an HTTP status");
    assertThatThrownBy(() -> Fault.serverError(Fault.Route.QUERY).times(0))
        .hasMessageContaining("at least 1");
  }

  @Test
  void theJsonFormNamesEachKindAndRefusesUnknownOnes() throws Exception {
    assertThat(
            http.scheduleFault("{\"route\":\"token\",\"kind\":\"latency\",\"delay_ms\":1}")
                .statusCode())
        .isEqualTo(201);
    assertThat(http.scheduleFault("{\"route\":\"token\",\"kind\":\"wrong_shape\"}").statusCode())
        .isEqualTo(201);
    assertThat(http.scheduleFault("{\"kind\":\"teapot\"}").statusCode()).isEqualTo(400);
    assertThat(http.scheduleFault("{\"route\":\"query\",\"kind\":\"cut_mid_stream\"}").statusCode())
        .isEqualTo(400);

    assertThat(http.token().statusCode()).isEqualTo(200); // the latency, served as usual
    assertThat(http.token().body()).isEqualTo("{\"totalSize\":1,\"done\":true}");
  }
}
