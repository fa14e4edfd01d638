package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Lease;
import io.sf2loki.coordinate.internal.LeaseTerm;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.LeaseInfo;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.FakeCheckpointStore;
import io.sf2loki.tck.FakeEpochFloor;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.tck.RecordingLeadershipListener.Kind;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * k8s_lease against the fabric8 CRUD mock API server, on simulated time, including beside another
 * process configured with the same identity: the Lease carries each writer's instance token, so a
 * Lease rewritten by the other is never renewed as ours and a release never frees it.
 */
class K8sLeaseCoordinatorIT {

  private static final Duration STEP = Duration.ofMillis(500);
  K8sLeaseFixture fx;
  final List<Contender> running = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    fx = new K8sLeaseFixture();
    fx.time.join();
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.time.leave();
    for (Contender c : running) {
      c.stop();
    }
    fx.close();
  }

  private Contender start(String id, Optional<EpochFloor> floor) throws Exception {
    Contender c = Contender.start(fx.time, id, fx.coordinator(id, floor));
    running.add(c);
    return c;
  }

  private void await(BooleanSupplier condition) throws InterruptedException {
    assertThat(fx.time.awaitCondition(condition, Duration.ofMinutes(3), STEP)).isTrue();
  }

  @Test
  void createsTheLeaseWithEpochAboveTheStateFloor() throws Exception {
    FakeCheckpointStore store = new FakeCheckpointStore();
    store.commit(Map.of("apexlog", "x"), new FakeTerm("seed", 7));
    Contender a = start("pod-a", Optional.of(store));
    await(a::isLeading);

    Term term = a.currentTerm().orElseThrow();
    assertThat(term.epoch()).isEqualTo(8);
    V1Lease lease = fx.read();
    assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("pod-a");
    assertThat(lease.getSpec().getLeaseTransitions()).isEqualTo(8);
    assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(30);
    store.commit(Map.of("apexlog", "y"), term);
  }

  @Test
  void lowLeaseTransitionsAreRaisedToTheFloor() throws Exception {
    fx.seed("", 2);
    Contender a = start("pod-a", Optional.of(FakeEpochFloor.of(11)));
    await(a::isLeading);

    assertThat(a.currentTerm().orElseThrow().epoch()).isEqualTo(12);
    assertThat(fx.read().getSpec().getLeaseTransitions()).isEqualTo(12);
  }

  @Test
  void throwingFloorStillAcquiresWithTransitionsPlusOne() throws Exception {
    fx.seed("", 4);
    FakeEpochFloor floor = FakeEpochFloor.of(40);
    floor.failing(true);
    Contender a = start("pod-a", Optional.of(floor));
    await(a::isLeading);

    assertThat(a.currentTerm().orElseThrow().epoch()).isEqualTo(5);
  }

  @Test
  void renewalsKeepAcquireTimeAndTransitions() throws Exception {
    Contender a = start("pod-a", Optional.empty());
    await(a::isLeading);
    V1Lease first = fx.read();

    fx.time.sleep(Duration.ofMinutes(1));

    V1Lease later = fx.read();
    assertThat(later.getMetadata().getResourceVersion())
        .isNotEqualTo(first.getMetadata().getResourceVersion());
    assertThat(later.getSpec().getRenewTime()).isAfter(first.getSpec().getRenewTime());
    assertThat(later.getSpec().getAcquireTime()).isEqualTo(first.getSpec().getAcquireTime());
    assertThat(later.getSpec().getLeaseTransitions()).isEqualTo(1);
    assertThat(a.listener().acquired()).hasSize(1);
  }

  @Test
  void freshStandbyWaitsAFullDurationEvenForAnOldRenewTime() throws Exception {
    fx.seed("gone-pod", 3);
    long start = fx.time.nanos();
    Contender b = start("pod-b", Optional.empty());
    await(b::isLeading);

    assertThat(Duration.ofNanos(fx.time.nanos() - start))
        .isGreaterThanOrEqualTo(K8sLeaseFixture.DURATION);
    assertThat(b.currentTerm().orElseThrow().epoch()).isEqualTo(4);
  }

  @Test
  void deletedLeaseEndsTheTermAtOnceAndIsRecreatedAboveTheFloor() throws Exception {
    FakeCheckpointStore store = new FakeCheckpointStore();
    Contender a = start("pod-a", Optional.of(store));
    await(a::isLeading);
    Term first = a.currentTerm().orElseThrow();
    store.commit(Map.of("k", "a"), first);

    fx.delete();
    await(() -> a.listener().acquired().size() == 2);

    assertThat(a.listener().events().get(1).kind()).isEqualTo(Kind.LOSE);
    assertThat(a.listener().events().get(1).currentDuringCall()).isFalse();
    Term second = a.listener().acquired().get(1);
    assertThat(second.epoch()).isGreaterThan(first.epoch());
    assertThat(fx.read().getSpec().getLeaseTransitions()).isEqualTo((int) second.epoch());
  }

  @Test
  void standbyTakesOverAfterGracefulReleaseAndTheOldTermIsFenced() throws Exception {
    FakeCheckpointStore store = new FakeCheckpointStore();
    Contender a = start("pod-a", Optional.of(store));
    await(a::isLeading);
    Term aTerm = a.currentTerm().orElseThrow();
    store.commit(Map.of("k", "a"), aTerm);
    Contender b = start("pod-b", Optional.of(store));
    fx.time.sleep(Duration.ofSeconds(2));
    running.remove(a);
    a.requestStop();
    fx.time.leave();
    a.participant().join(TestTiming.seconds(10));
    fx.time.join();
    assertThat(a.listener().events().get(1).currentDuringCall()).isTrue();

    await(b::isLeading);

    Term bTerm = b.currentTerm().orElseThrow();
    assertThat(bTerm.epoch()).isEqualTo(aTerm.epoch() + 1);
    store.commit(Map.of("k", "b"), bTerm);
    Assertions.assertThatThrownBy(() -> store.commit(Map.of("k", "a2"), aTerm))
        .isInstanceOf(FencedException.class);
  }

  @Test
  void twoStandbysRacingAStaleLeaseNeverOverlap() throws Exception {
    fx.seed("gone-pod", 0);
    List<String> overlaps = new ArrayList<>();
    long lastEpoch = 0;
    for (int round = 0; round < 6; round++) {
      Contender a = start("pod-a", Optional.empty());
      Contender b = start("pod-b", Optional.empty());
      fx.time.awaitCondition(
          () -> {
            if (a.isLeading() && b.isLeading()) {
              overlaps.add("overlap at " + fx.time.instant());
            }
            return a.isLeading() || b.isLeading();
          },
          Duration.ofMinutes(2),
          STEP);
      fx.time.sleep(Duration.ofSeconds(45));
      assertThat(a.listener().acquired().size() + b.listener().acquired().size())
          .as("round %d", round)
          .isEqualTo(1);
      long epoch = (a.isLeading() ? a : b).currentTerm().orElseThrow().epoch();
      assertThat(epoch).isGreaterThan(lastEpoch);
      lastEpoch = epoch;
      fx.time.leave();
      a.stop();
      b.stop();
      running.clear();
      fx.time.join();
    }
    assertThat(overlaps).isEmpty();
  }

  @Test
  void inspectorReportsTheLeaseWithoutJoining() throws Exception {
    K8sLeaseInspector inspector =
        new K8sLeaseInspector(
            () -> {
              try {
                return fx.api();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            },
            fx.config,
            fx.time.clock());
    assertThat(inspector.inspect().state()).isEqualTo(LeaseInfo.State.ABSENT);
    fx.seed("pod-x", 6);

    LeaseInfo info = inspector.inspect();

    assertThat(info.state()).isEqualTo(LeaseInfo.State.HELD);
    assertThat(info.holder()).contains("pod-x");
    assertThat(info.epoch()).hasValue(6);
    assertThat(info.location()).isEqualTo("default/sf2loki-leader");
  }

  /** Replaces the Lease as another process with the same identity would (its own token). */
  private V1Lease rewriteAsTwin() throws Exception {
    V1Lease read = fx.read();
    read.getMetadata().putAnnotationsItem(LeaseBodies.INSTANCE, "twin");
    return fx.api
        .replaceNamespacedLease(
            fx.config.name(),
            fx.config.namespace(),
            LeaseBodies.renewed(read, fx.config, fx.time.instant()))
        .execute();
  }

  @Test
  void aLeaseRewrittenByAnotherProcessWithOurIdentityIsNotRenewedAsOurs() throws Exception {
    Contender a = start("sf2loki-a", Optional.empty());
    await(a::isLeading);

    rewriteAsTwin();
    await(() -> a.listener().held().isEmpty());

    assertThat(LeaseBodies.instance(fx.read())).contains("twin");
  }

  @Test
  void releaseNeverFreesALeaseCarryingAnotherProcesssToken() throws Exception {
    Contender a = start("sf2loki-a", Optional.empty());
    await(a::isLeading);
    Term term = a.currentTerm().orElseThrow();
    V1Lease twins = rewriteAsTwin();

    ((K8sLeaseCoordinator) a.coordinator()).release((LeaseTerm) term);

    V1Lease after = fx.read();
    assertThat(after.getSpec().getHolderIdentity()).isEqualTo("sf2loki-a");
    assertThat(after.getMetadata().getResourceVersion())
        .isEqualTo(twins.getMetadata().getResourceVersion());
  }
}
