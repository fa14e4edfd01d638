package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LokiReachabilityTest {

  final FakeLoki loki = LokiSinkEncodingTest.start();

  @AfterEach
  void close() {
    loki.close();
  }

  @Test
  void anEmptyProtobufPushIsAcceptedAndWritesNoLine() throws Exception {
    LokiReachability.Answer answer = LokiReachability.emptyPush(LokiConfigs.to(loki.uri()).build());

    assertThat(answer.accepted()).isTrue();
    assertThat(loki.pushes()).hasSize(1);
    assertThat(loki.entries()).isEmpty();
  }

  @Test
  void anEmptyJsonPushIsAcceptedAndWritesNoLine() throws Exception {
    LokiReachability.Answer answer =
        LokiReachability.emptyPush(LokiConfigs.to(loki.uri()).json(true).build());

    assertThat(answer.accepted()).isTrue();
    assertThat(loki.entries()).isEmpty();
  }

  @Test
  void theProbeCarriesTheConfiguredTenant() throws Exception {
    LokiReachability.emptyPush(LokiConfigs.to(loki.uri()).tenant("acme").build());

    assertThat(loki.pushes().get(0).header("x-scope-orgid")).contains("acme");
  }

  @Test
  void aRefusedProbeReportsLokisStatus() throws Exception {
    loki.inject(Fault.status(401, 1));

    LokiReachability.Answer answer = LokiReachability.emptyPush(LokiConfigs.to(loki.uri()).build());

    assertThat(answer.accepted()).isFalse();
    assertThat(answer.status()).isEqualTo(401);
  }
}
