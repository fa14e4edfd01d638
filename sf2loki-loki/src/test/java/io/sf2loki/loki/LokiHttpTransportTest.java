package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.testkit.loki.FakeLoki;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LokiHttpTransportTest {

  final FakeLoki loki = LokiSinkEncodingTest.start();

  @AfterEach
  void close() {
    loki.close();
    Thread.interrupted(); // never leak a test's interrupt into the next
  }

  /**
   * Regression (chaos soak, seed 587156878038969469): a run tearing down interrupts its lanes, and
   * HttpClient answers a push begun by an interrupted thread with an unchecked {@code
   * CancellationException} (its pool cancels the connection lease); the lane took that for a crash
   * and a daemon that had only lost its lease exited 1.
   */
  @Test
  void aPushStartedByAnInterruptedThreadIsAnInterruptNotAnUncheckedCancellation() throws Exception {
    try (LokiHttpTransport transport =
        new LokiHttpTransport(LokiConfigs.to(loki.uri()).build(), "sf2loki-test")) {
      EncodedBody body =
          new EncodedBody(
              "{\"streams\":[]}".getBytes(StandardCharsets.UTF_8),
              "application/json",
              Optional.empty());

      Thread.currentThread().interrupt();

      assertThatThrownBy(() -> transport.send(body)).isInstanceOf(InterruptedException.class);
      assertThat(loki.pushes()).isEmpty();
    }
  }
}
