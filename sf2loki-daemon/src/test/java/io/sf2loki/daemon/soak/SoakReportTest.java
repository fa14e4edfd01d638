package io.sf2loki.daemon.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SoakReportTest {

  private static SoakReport report(
      DeliveryAudit.Delivery delivery, int terms, List<String> regressions) {
    return new SoakReport(
        SoakStore.Kind.FILE,
        1,
        Duration.ofMinutes(1),
        Map.of(FaultKind.KILL_LEADER, 2),
        3,
        delivery,
        terms,
        4,
        List.of(),
        regressions,
        100,
        0,
        Map.of(FaultKind.KILL_LEADER, Duration.ofSeconds(4)),
        Duration.ofSeconds(5),
        0,
        List.of());
  }

  private static DeliveryAudit.Delivery delivered(long lost, long storedTwice, long resent) {
    return new DeliveryAudit.Delivery(1000, 100, lost, List.of(), storedTwice, resent);
  }

  @Test
  void aSoakThatLostNothingAndStayedInBoundsPasses() {
    SoakReport report = report(delivered(0, 0, 50), 5, List.of());

    assertThat(report.violations()).isEmpty();
    assertThat(report.render()).contains("| lost | 0 |").contains("| verdict | PASS |");
  }

  @Test
  void aLostEventFailsTheSoak() {
    assertThat(report(delivered(1, 0, 0), 5, List.of()).violations())
        .singleElement()
        .asString()
        .startsWith("1 generated event(s) never reached Loki");
  }

  @Test
  void anEventStoredTwiceFailsTheSoak() {
    assertThat(report(delivered(0, 2, 0), 5, List.of()).violations())
        .containsExactly("2 event(s) are stored twice in Loki");
  }

  @Test
  void reSendsBeyondOneBatchAndFilePerDisruptionFailTheSoak() {
    // 5 terms + 3 unknown outcomes = 8 disruptions
    long bound = 8L * SoakReport.RESEND_PER_DISRUPTION;

    assertThat(report(delivered(0, 0, bound), 5, List.of()).violations()).isEmpty();
    assertThat(report(delivered(0, 0, bound + 1), 5, List.of()).violations())
        .singleElement()
        .asString()
        .contains("exceed the bound of " + bound);
  }

  @Test
  void aCheckpointThatMovedBackwardsFailsTheSoak() {
    assertThat(
            report(delivered(0, 0, 0), 5, List.of("__fence_epoch__ went from 4 to 3")).violations())
        .containsExactly("__fence_epoch__ went from 4 to 3");
  }

  @Test
  void aSoakWithoutASingleTermProvesNothingAndFails() {
    assertThat(report(delivered(0, 0, 0), 0, List.of()).violations())
        .containsExactly("no term started (the daemons' logs name none)");
  }
}
