package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.coordinate.support.FencedStore;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.FakeEpochFloor;
import io.sf2loki.tck.FakeTerm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Invariant 2 for file_lease: epoch = max(lease epoch, store floor) + 1 at every acquire. */
class FileLeaseEpochFloorTest {

  @TempDir Path dir;
  FileLeaseFixture fx;
  Contender contender;
  FencedStore store;

  @BeforeEach
  void setUp() {
    fx = new FileLeaseFixture(dir);
    fx.time.join();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (contender != null) {
      contender.stop();
    }
    if (store != null) {
      store.close();
    }
  }

  /** The in-memory double or the real file store of sf2loki-state, in this test's directory. */
  private FencedStore open(StoreKind kind) {
    store = kind.open(dir);
    return store;
  }

  private Term acquire(Optional<EpochFloor> floor) throws InterruptedException {
    contender = Contender.start(fx.time, "a", fx.coordinator("a", floor));
    assertThat(fx.time.awaitCondition(contender::isLeading, Duration.ofMinutes(2), RENEW_STEP))
        .as("acquired")
        .isTrue();
    return contender.currentTerm().orElseThrow();
  }

  private static final Duration RENEW_STEP = Duration.ofSeconds(1);

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void absentLeaseFileYieldsEpochAboveStateFloorAndCommitSucceeds(StoreKind kind) throws Exception {
    FencedStore store = open(kind);
    store.commit(Map.of("apexlog", "x"), new FakeTerm("seed", 7));

    Term term = acquire(Optional.of(store));

    assertThat(term.epoch()).isEqualTo(8);
    store.commit(Map.of("apexlog", "y"), term);
    assertThat(store.persistedEpoch()).hasValue(8);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void corruptLeaseFileYieldsEpochAboveStateFloorAndCommitSucceeds(StoreKind kind)
      throws Exception {
    FencedStore store = open(kind);
    store.commit(Map.of("apexlog", "x"), new FakeTerm("seed", 7));
    Files.writeString(
        fx.lease, "{\"holder\": \"old\", \"expires_at\": tru", StandardCharsets.UTF_8);

    Term term = acquire(Optional.of(store));

    assertThat(term.epoch()).isEqualTo(8);
    store.commit(Map.of("apexlog", "y"), term);
    assertThat(fx.document().epoch()).isEqualTo(8);
  }

  @Test
  void leaseWithWrongFieldTypesIsClaimableWithoutLoweringTheEpoch() throws Exception {
    Files.writeString(fx.lease, "{\"holder\": 5, \"expires_at\": [], \"epoch\": \"x\"}");

    assertThat(acquire(Optional.of(FakeEpochFloor.of(4))).epoch()).isEqualTo(5);
  }

  @Test
  void floorBelowLeaseEpochOnlyRaises() throws Exception {
    fx.write(new FileLeaseDocument("old", fx.time.instant(), 9));

    assertThat(acquire(Optional.of(FakeEpochFloor.of(3))).epoch()).isEqualTo(10);
  }

  @Test
  void throwingFloorStillAcquiresWithLeaseEpochPlusOne() throws Exception {
    fx.write(new FileLeaseDocument("old", fx.time.instant(), 9));
    FakeEpochFloor floor = FakeEpochFloor.of(50);
    floor.failing(true);

    assertThat(acquire(Optional.of(floor)).epoch()).isEqualTo(10);
  }

  @Test
  void noFloorTakesLeaseEpochPlusOneExactly() throws Exception {
    fx.write(new FileLeaseDocument("old", fx.time.instant(), 9));

    assertThat(acquire(Optional.empty()).epoch()).isEqualTo(10);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void deletedLeaseFileStillYieldsEpochAboveStateFloor(StoreKind kind) throws Exception {
    FencedStore store = open(kind);
    Term first = acquire(Optional.of(store));
    store.commit(Map.of("apexlog", "1"), first);
    contender.stop();
    Files.delete(fx.lease);

    contender = Contender.start(fx.time, "b", fx.coordinator("b", Optional.of(store)));
    assertThat(fx.time.awaitCondition(contender::isLeading, Duration.ofMinutes(1), RENEW_STEP))
        .isTrue();
    Term second = contender.currentTerm().orElseThrow();

    assertThat(second.epoch()).isGreaterThan(first.epoch());
    store.commit(Map.of("apexlog", "2"), second);
    assertThat(store.persistedEpoch()).hasValue(second.epoch());
  }

  @Test
  void floorIsReadAtEveryAcquireNotOnceAtStartup() throws Exception {
    FakeEpochFloor floor = FakeEpochFloor.of(1);
    FileLeaseCoordinator coordinator = fx.coordinator("a", Optional.of(floor));
    contender = Contender.start(fx.time, "a", coordinator);
    fx.time.awaitCondition(contender::isLeading, Duration.ofMinutes(1), RENEW_STEP);
    assertThat(contender.currentTerm().orElseThrow().epoch()).isEqualTo(2);

    floor.set(40);
    fx.write(new FileLeaseDocument("intruder", fx.time.instant().plusSeconds(5), 2));
    fx.time.awaitCondition(
        () -> contender.listener().acquired().size() == 2, Duration.ofMinutes(2), RENEW_STEP);

    assertThat(contender.listener().acquired().get(1).epoch()).isEqualTo(41);
  }
}
