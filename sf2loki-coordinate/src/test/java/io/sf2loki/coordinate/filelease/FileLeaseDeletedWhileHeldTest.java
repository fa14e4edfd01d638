package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.coordinate.support.FencedStore;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.RecordingLeadershipListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The lease is deleted while its leader is live and has not committed yet; a standby claims it
 * before the leader's next renewal, so for up to one renew interval both believe they lead. The
 * engine's fenced stamp at every acquire is what keeps their epochs apart: with the leader's epoch
 * recorded as the store floor, the standby's epoch is strictly higher and the old leader is fenced.
 *
 * <p>Schedule (ttl 30s, renew 10s, verify 1s): a claims at 0 and leads from 1, renews at 11; b
 * starts at 2 and polls at 12; the lease is deleted at 11.5; b claims at 12 and leads from 13; a
 * sees b's lease at its renewal at 21.
 */
class FileLeaseDeletedWhileHeldTest {

  @TempDir Path dir;
  FileLeaseFixture fx;
  FencedStore store;
  Contender a;
  Contender b;

  @BeforeEach
  void setUp() {
    fx = new FileLeaseFixture(dir);
    fx.time.join();
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.time.leave();
    for (Contender c : new Contender[] {a, b}) {
      if (c != null) {
        c.stop();
      }
    }
    store.close();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void standbyGetsAStrictlyHigherEpochWhenTheFloorIsStampedAtAcquire(StoreKind kind)
      throws Exception {
    store = kind.open(dir);
    Consumer<Term> stampAtAcquire = t -> store.commit(Map.of("leader", t.holder()), t);

    deleteTheLeaseUnderALiveLeader(stampAtAcquire);

    Term aTerm = a.currentTerm().orElseThrow();
    Term bTerm = b.currentTerm().orElseThrow();
    assertThat(bTerm.epoch()).isGreaterThan(aTerm.epoch());
    assertThat(store.persistedEpoch()).hasValue(bTerm.epoch());
    assertThatThrownBy(() -> store.commit(Map.of("k", "a"), aTerm))
        .isInstanceOf(FencedException.class);
    store.commit(Map.of("k", "b"), bTerm);
  }

  /**
   * Pins the gap the stamp closes: a coordinator used without it (a library user whose first commit
   * comes later) hands the standby the leader's own epoch, and the store cannot tell the two apart.
   */
  @Test
  void withoutTheStampTheStandbyRepeatsTheLiveLeadersEpoch() throws Exception {
    store = StoreKind.FILE.open(dir);

    deleteTheLeaseUnderALiveLeader(t -> {});

    Term aTerm = a.currentTerm().orElseThrow();
    Term bTerm = b.currentTerm().orElseThrow();
    assertThat(bTerm.epoch()).isEqualTo(aTerm.epoch());
    store.commit(Map.of("k", "b"), bTerm);
    store.commit(Map.of("k", "a"), aTerm); // equal epochs pass: this is the split brain
    assertThat(store.load("k")).hasValue("a");
  }

  /** Leaves the timeline at 14s: a still current (until 21s), b current since 13s. */
  private void deleteTheLeaseUnderALiveLeader(Consumer<Term> onAcquire) throws Exception {
    a = start("a", onAcquire);
    fx.time.sleep(Duration.ofSeconds(2));
    assertThat(a.isLeading()).isTrue();
    b = start("b", onAcquire);
    fx.time.sleep(Duration.ofMillis(9_500));
    Files.delete(fx.lease);
    fx.time.sleep(Duration.ofMillis(2_500));
    assertThat(a.isLeading()).as("a has not renewed since the deletion").isTrue();
    assertThat(b.isLeading()).as("b claimed the deleted lease").isTrue();
  }

  private Contender start(String name, Consumer<Term> onAcquire) {
    return Contender.start(
        fx.time,
        name,
        fx.coordinator(name, Optional.of(store)),
        new RecordingLeadershipListener(onAcquire, t -> {}));
  }
}
