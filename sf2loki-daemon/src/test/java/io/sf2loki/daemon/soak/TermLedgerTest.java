package io.sf2loki.daemon.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TermLedgerTest {

  private static String started(long epoch) {
    return "2026-12-01T20:54:07.061Z INFO  [main] io.sf2loki.engine.TermRunner - sf2loki ready"
        + " — streaming to Loki (epoch "
        + epoch
        + ")\n";
  }

  private static SoakStore.Write write(String writer, long epoch) {
    return new SoakStore.Write(writer, Map.of("__fence_epoch__", Long.toString(epoch)));
  }

  @Test
  void termsLedByOneProcessEachAreNoConflict() {
    TermLedger ledger =
        TermLedger.of(
            Map.of("a-1", started(1) + started(3), "b-1", started(2)),
            List.of(write("a-1", 1), write("b-1", 2), write("a-1", 3)));

    assertThat(ledger.terms()).isEqualTo(3);
    assertThat(ledger.conflicts()).isEmpty();
  }

  @Test
  void anEpochStartedByTwoProcessesIsAConflict() {
    TermLedger ledger = TermLedger.of(Map.of("a-1", started(4), "b-2", started(4)), List.of());

    assertThat(ledger.conflicts()).containsExactly("epoch 4 was led by [a-1, b-2]");
  }

  @Test
  void anEpochWrittenByTwoWritersIsAConflict() {
    TermLedger ledger = TermLedger.of(Map.of(), List.of(write("a-1", 5), write("b-1", 5)));

    assertThat(ledger.conflicts()).singleElement().asString().contains("epoch 5 by [a-1, b-1]");
  }

  @Test
  void aWriteUnderAnEpochAnotherProcessLedIsAConflict() {
    TermLedger ledger = TermLedger.of(Map.of("a-1", started(6)), List.of(write("b-1", 6)));

    assertThat(ledger.conflicts())
        .containsExactly("the store recorded writes of epoch 6 by [b-1], led by [a-1]");
  }
}
