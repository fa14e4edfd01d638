package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.coordinate.support.FaultyLeaseStorage;
import io.sf2loki.coordinate.support.FencedStore;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.FakeCheckpointStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Real threads contending for one lease file on a shared simulated timeline. */
class FileLeaseRaceTest {

  private static final Duration STEP = Duration.ofMillis(250);

  @TempDir Path dir;

  @Test
  void twoContendersRacingAnExpiredLeaseHaveExactlyOneWinnerEachRound() throws Exception {
    FileLeaseFixture fx = new FileLeaseFixture(dir);
    fx.time.join();
    FakeCheckpointStore store = new FakeCheckpointStore();
    long lastEpoch = 0;
    for (int round = 0; round < 25; round++) {
      fx.write(new FileLeaseDocument("gone", fx.time.instant(), lastEpoch));
      Contender a = Contender.start(fx.time, "a", fx.coordinator("a", Optional.of(store)));
      Contender b = Contender.start(fx.time, "b", fx.coordinator("b", Optional.of(store)));

      fx.time.awaitCondition(() -> a.isLeading() || b.isLeading(), Duration.ofMinutes(1), STEP);
      fx.time.sleep(Duration.ofMinutes(1));

      int winners = a.listener().acquired().size() + b.listener().acquired().size();
      assertThat(winners).as("round %d", round).isEqualTo(1);
      Contender winner = a.isLeading() ? a : b;
      Term term = winner.currentTerm().orElseThrow();
      assertThat(term.epoch()).isGreaterThan(lastEpoch);
      store.commit(Map.of("round", Integer.toString(round)), term);
      lastEpoch = term.epoch();
      fx.time.leave();
      a.stop();
      b.stop();
      fx.time.join();
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void pausedLeaderNeverOverlapsItsSuccessorAndIsFenced(StoreKind kind) throws Exception {
    FileLeaseFixture fx = new FileLeaseFixture(dir);
    fx.time.join();
    FencedStore store = kind.open(dir);
    FaultyLeaseStorage aStorage = new FaultyLeaseStorage(new FileLeaseFile(fx.lease), fx.time);
    Contender a = Contender.start(fx.time, "a", fx.coordinator(aStorage, "a", Optional.of(store)));
    fx.time.awaitCondition(a::isLeading, Duration.ofMinutes(1), STEP);
    Term aTerm = a.currentTerm().orElseThrow();
    store.commit(Map.of("k", "a"), aTerm);
    Contender b = Contender.start(fx.time, "b", fx.coordinator("b", Optional.of(store)));
    fx.time.sleep(Duration.ofSeconds(5));

    aStorage.pauseBeforeNextWrite(Duration.ofSeconds(50));
    List<String> overlaps = new ArrayList<>();
    fx.time.awaitCondition(
        () -> {
          if (a.isLeading() && b.isLeading()) {
            overlaps.add("both current at " + fx.time.instant());
          }
          return b.isLeading() && a.listener().held().isEmpty();
        },
        Duration.ofMinutes(3),
        STEP);

    assertThat(overlaps).isEmpty();
    Term bTerm = b.currentTerm().orElseThrow();
    assertThat(bTerm.epoch()).isGreaterThan(aTerm.epoch());
    store.commit(Map.of("k", "b"), bTerm);
    assertThatThrownBy(() -> store.commit(Map.of("k", "a2"), aTerm))
        .isInstanceOf(FencedException.class);
    fx.time.leave();
    a.stop();
    b.stop();
    store.close();
  }

  @Test
  void claimLandingAfterTheTtlNeverLetsAnyoneClaimWhileTheOverwrittenLeaderIsCurrent()
      throws Exception {
    FileLeaseFixture fx = new FileLeaseFixture(dir);
    fx.time.join();
    FakeCheckpointStore store = new FakeCheckpointStore();
    fx.write(new FileLeaseDocument("gone", fx.time.instant(), 0));
    FaultyLeaseStorage aStorage = new FaultyLeaseStorage(new FileLeaseFile(fx.lease), fx.time);
    aStorage.pauseBeforeNextWrite(Duration.ofSeconds(45));
    Contender a = Contender.start(fx.time, "a", fx.coordinator(aStorage, "a", Optional.of(store)));
    fx.time.sleep(Duration.ofNanos(1_000)); // a is now stalled in its claim write
    Contender b = Contender.start(fx.time, "b", fx.coordinator("b", Optional.of(store)));

    List<String> overlaps = new ArrayList<>();
    fx.time.awaitCondition(
        () -> {
          if (a.isLeading() && b.isLeading()) {
            overlaps.add("both current at " + fx.time.instant());
          }
          return false;
        },
        Duration.ofMinutes(3),
        STEP);

    assertThat(overlaps).isEmpty();
    assertThat(a.isLeading() || b.isLeading()).isTrue();
    fx.time.leave();
    a.stop();
    b.stop();
  }

  @Test
  void renewalLandingAfterTheTtlNeverLetsAThirdContenderOverlapTheSuccessor() throws Exception {
    FileLeaseFixture fx = new FileLeaseFixture(dir);
    fx.time.join();
    FakeCheckpointStore store = new FakeCheckpointStore();
    FaultyLeaseStorage aStorage = new FaultyLeaseStorage(new FileLeaseFile(fx.lease), fx.time);
    Contender a = Contender.start(fx.time, "a", fx.coordinator(aStorage, "a", Optional.of(store)));
    fx.time.awaitCondition(a::isLeading, Duration.ofMinutes(1), STEP);
    List<Contender> standbys = new ArrayList<>();
    for (String name : List.of("b", "c", "d")) {
      standbys.add(Contender.start(fx.time, name, fx.coordinator(name, Optional.of(store))));
      fx.time.sleep(Duration.ofMillis(3_300));
    }

    aStorage.pauseBeforeNextWrite(Duration.ofSeconds(55));
    List<Contender> all = new ArrayList<>(standbys);
    all.add(a);
    List<String> overlaps = new ArrayList<>();
    fx.time.awaitCondition(
        () -> {
          if (all.stream().filter(Contender::isLeading).count() > 1) {
            overlaps.add("two current at " + fx.time.instant());
          }
          return false;
        },
        Duration.ofMinutes(3),
        STEP);

    assertThat(overlaps).isEmpty();
    fx.time.leave();
    for (Contender c : all) {
      c.stop();
    }
  }
}
