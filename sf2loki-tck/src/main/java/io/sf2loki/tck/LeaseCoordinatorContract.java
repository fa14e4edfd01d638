package io.sf2loki.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.Term;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of a {@link Coordinator} that elects one leader among replicas through a lease and
 * grants fenced terms (invariant 2), on top of the {@link CoordinatorContract}: every acquire takes
 * {@code max(lease epoch, store floor) + 1}, an unreadable floor does not stop the election, a live
 * lease is not contested, a release hands over to a standby at a higher epoch, a leader that pauses
 * past its lease stops being current before anyone else leads, and epochs only grow across acquires
 * even when the lease is deleted.
 *
 * <p>A backend's test extends this class and supplies a {@link LeaseElection} (the same adapter its
 * {@link LeaseCoordinatorProperties} use). The kit assumes a lease duration of at most 30 s and a
 * renew interval of at most 10 s.
 */
public abstract class LeaseCoordinatorContract extends CoordinatorContract {

  private LeaseElection election;
  private final Map<String, LeaseElection.Candidate> candidates = new HashMap<>();

  /** A new election (one lease, nobody holding it) on {@code time}. */
  protected abstract LeaseElection newElection(SimulatedTime time) throws Exception;

  @Override
  protected final Coordinator newCoordinator(
      String identity, SimulatedTime time, Optional<EpochFloor> floor) throws Exception {
    return join(identity, floor).coordinator();
  }

  /** The election of the current test, made on first use. */
  protected final LeaseElection election() throws Exception {
    if (election == null) {
      election = newElection(time);
    }
    return election;
  }

  @AfterEach
  final void closeTheElection() throws Exception {
    if (election != null) {
      election.close();
    }
  }

  private LeaseElection.Candidate join(String identity, Optional<EpochFloor> floor)
      throws Exception {
    LeaseElection.Candidate c = election().join(identity, floor);
    candidates.put(identity, c);
    return c;
  }

  /** The faults of the process contending as {@code identity}. */
  protected final LeaseElection.Candidate candidate(String identity) {
    return Objects.requireNonNull(candidates.get(identity), identity);
  }

  /** Starts a contender whose acquire claims its epoch in {@code store}, as the engine does. */
  private Contender startClaiming(String identity, FakeCheckpointStore store) throws Exception {
    LeaseElection.Candidate c = join(identity, Optional.of(store));
    return start(
        identity, c.coordinator(), new RecordingLeadershipListener(store::claimEpoch, t -> {}));
  }

  /** On a fresh lease, the first acquire takes the store's floor + 1. */
  @Test
  void acquiresWithTheEpochAboveTheStoresFloor() throws Exception {
    Contender a = start("replica-a", Optional.of(FakeEpochFloor.of(7)));
    await("replica-a acquires", a::isLeading);

    Term term = a.currentTerm().orElseThrow();
    assertThat(term.epoch()).isEqualTo(8);
    assertThat(term.fencingEpoch()).hasValue(8);
  }

  /** Over a lease a gone holder left at an epoch above the floor, the acquire takes that + 1. */
  @Test
  void acquiresAboveTheEpochOfALeaseLeftBehind() throws Exception {
    election().leaveLease("gone-replica", 5);
    Contender a = start("replica-a", Optional.of(FakeEpochFloor.of(2)));
    await("replica-a acquires once the left lease expired", a::isLeading);

    assertThat(a.currentTerm().orElseThrow().epoch()).isEqualTo(6);
  }

  /** A floor that cannot be read counts as absent: the election never waits for the store. */
  @Test
  void unreadableFloorDoesNotStopTheElection() throws Exception {
    FakeEpochFloor floor = FakeEpochFloor.of(40);
    floor.failing(true);
    Contender a = start("replica-a", Optional.of(floor));
    await("replica-a acquires", a::isLeading);

    assertThat(a.currentTerm().orElseThrow().epoch()).isEqualTo(1);
  }

  /**
   * Two processes configured with one explicit identity: the second sees the live lease renewed by
   * a process that is not itself, refuses to run (its {@code run} ends with an error naming the
   * identity) and never acquires; the leader keeps leading.
   */
  @Test
  void aSecondProcessWithTheSameIdentityRefusesToRunBesideTheLiveLeader() throws Exception {
    Contender a = start("replica-a", Optional.empty());
    await("replica-a acquires", a::isLeading);

    Contender twin =
        Contender.start(
            time, "replica-a-twin", election().join("replica-a", Optional.empty()).coordinator());
    await("the twin gives up", () -> !twin.participant().thread().isAlive());

    assertThatThrownBy(() -> twin.participant().join(TestTiming.seconds(10)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'replica-a'");
    assertThat(twin.listener().acquired()).isEmpty();
    assertThat(a.currentTerm()).isPresent();
  }

  /**
   * While a leader renews, a standby never acquires, and the leader keeps its one term and epoch.
   */
  @Test
  void liveLeaseIsNotContested() throws Exception {
    Contender a = start("replica-a", Optional.empty());
    await("replica-a acquires", a::isLeading);
    Term term = a.currentTerm().orElseThrow();
    Contender b = start("replica-b", Optional.empty());

    watch(Duration.ofMinutes(2), () -> assertThat(b.listener().events()).isEmpty());

    assertThat(a.currentTerm()).containsSame(term);
    assertThat(a.listener().acquired()).hasSize(1);
  }

  /**
   * A graceful release hands the lease to a standby, whose term has a higher epoch; the store then
   * fences the old term.
   */
  @Test
  void releaseHandsOverToAStandbyAtAHigherEpoch() throws Exception {
    FakeCheckpointStore store = new FakeCheckpointStore();
    Contender a = startClaiming("replica-a", store);
    await("replica-a acquires", a::isLeading);
    Term aTerm = a.currentTerm().orElseThrow();
    store.commit(Map.of("k", "a"), aTerm);
    Contender b = startClaiming("replica-b", store.sibling());
    time.sleep(Duration.ofSeconds(2));

    stopGracefully(a);
    await("replica-b takes over", b::isLeading);

    Term bTerm = b.currentTerm().orElseThrow();
    assertThat(bTerm.epoch()).isGreaterThan(aTerm.epoch());
    store.commit(Map.of("k", "b"), bTerm);
    assertThatThrownBy(() -> store.commit(Map.of("k", "a2"), aTerm))
        .isInstanceOf(FencedException.class);
    assertThat(store.load("k")).contains("b");
  }

  /**
   * A leader that stalls past its lease stops being current by itself, before a standby leads (at
   * no instant do two current terms exist); the standby's epoch is higher, the stale term never
   * becomes current again and gets its {@code onLose}.
   */
  @Test
  void leaderPausedPastItsLeaseStopsBeingCurrentBeforeAStandbyLeads() throws Exception {
    Contender a = start("replica-a", Optional.empty());
    await("replica-a acquires", a::isLeading);
    Term aTerm = a.currentTerm().orElseThrow();
    Contender b = start("replica-b", Optional.empty());
    time.sleep(Duration.ofSeconds(1));
    candidate("replica-a").pauseBeforeNextWrite(Duration.ofSeconds(45));

    List<String> overlaps = new ArrayList<>();
    await(
        "replica-b takes over",
        () -> {
          if (aTerm.isCurrent() && b.isLeading()) {
            overlaps.add("both current at " + time.instant());
          }
          return b.isLeading();
        });
    await("replica-a is told it lost", () -> a.listener().held().isEmpty());

    assertThat(overlaps).isEmpty();
    assertThat(aTerm.isCurrent()).isFalse();
    assertThat(b.currentTerm().orElseThrow().epoch()).isGreaterThan(aTerm.epoch());
    assertThat(a.listener().violations()).isEmpty();
  }

  /**
   * Epochs only grow over a run of leaders that claim their epochs in the store, whether the lease
   * survives between them or is deleted: the store's floor outlives the lease.
   */
  @Test
  void epochsOnlyGrowAcrossAcquiresEvenWhenTheLeaseIsDeleted() throws Exception {
    FakeCheckpointStore store = new FakeCheckpointStore();
    List<Long> epochs = new ArrayList<>();
    for (int round = 1; round <= 4; round++) {
      Contender c = startClaiming("replica-" + round, store.sibling());
      await("replica-" + round + " acquires", c::isLeading);
      epochs.add(c.currentTerm().orElseThrow().epoch());
      stopGracefully(c);
      if (round % 2 == 0) {
        election().deleteLease();
      }
    }
    assertThat(epochs).isSorted().doesNotHaveDuplicates();
    assertThat(store.persistedEpoch()).hasValue(epochs.get(epochs.size() - 1));
  }

  /** Lets {@code span} of simulated time pass, checking {@code invariant} at every step. */
  private void watch(Duration span, Runnable invariant) throws InterruptedException {
    time.awaitCondition(
        () -> {
          invariant.run();
          return false;
        },
        span,
        STEP);
  }
}
