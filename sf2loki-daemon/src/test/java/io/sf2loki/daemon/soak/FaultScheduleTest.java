package io.sf2loki.daemon.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FaultScheduleTest {

  private static final Duration TTL = Duration.ofSeconds(3);

  private static List<PlannedFault> deal(FaultKind.Stream stream, long seed, int n) {
    FaultSchedule schedule = new FaultSchedule(stream, seed, TTL);
    return IntStream.range(0, n).mapToObj(i -> schedule.next()).toList();
  }

  @Test
  void theSameSeedDealsTheSameFaultsWithTheSameParametersAndPauses() {
    assertThat(deal(FaultKind.Stream.PROTOCOL, 42, 40))
        .isEqualTo(deal(FaultKind.Stream.PROTOCOL, 42, 40))
        .isNotEqualTo(deal(FaultKind.Stream.PROTOCOL, 43, 40));
  }

  @Test
  void eachDeckHoldsEveryKindOfItsStreamOnce() {
    List<FaultKind> kinds = FaultSchedule.kinds(FaultKind.Stream.LEADERSHIP);
    List<PlannedFault> dealt = deal(FaultKind.Stream.LEADERSHIP, 7, kinds.size() * 3);

    for (int deck = 0; deck < 3; deck++) {
      List<FaultKind> oneDeck = new ArrayList<>();
      dealt
          .subList(deck * kinds.size(), (deck + 1) * kinds.size())
          .forEach(f -> oneDeck.add(f.kind()));
      assertThat(oneDeck).containsExactlyInAnyOrderElementsOf(kinds);
    }
  }

  @Test
  void everyKindIsDealtOnceTheFirstDeckIsOut() {
    FaultSchedule schedule = new FaultSchedule(FaultKind.Stream.PROTOCOL, 1, TTL);
    int kinds = FaultSchedule.kinds(FaultKind.Stream.PROTOCOL).size();
    for (int i = 0; i < kinds - 1; i++) {
      schedule.next();
      assertThat(schedule.everyKindDealt()).isFalse();
    }

    schedule.next();

    assertThat(schedule.everyKindDealt()).isTrue();
  }

  @Test
  void aPauseOutlastsTheTtlSoThePausedLeaderLosesItsLease() {
    assertThat(deal(FaultKind.Stream.LEADERSHIP, 3, 200))
        .filteredOn(f -> f.kind() == FaultKind.PAUSE_LEADER || f.kind() == FaultKind.PAUSE_STANDBY)
        .isNotEmpty()
        .allSatisfy(f -> assertThat(f.length()).isGreaterThan(TTL));
  }
}
