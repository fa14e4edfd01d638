package io.sf2loki.testkit.salesforce;

import static io.sf2loki.testkit.salesforce.SalesforceHttp.logFilePath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Scripted faults strike the routes they are aimed at, in the order queued. */
@Timeout(10)
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
}
