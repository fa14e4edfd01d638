package io.sf2loki.tck;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Term;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Two or three contenders of one {@link LeaseElection} and one shared checkpoint store, on
 * simulated time. Every contender behaves like the engine: at each acquire it claims its epoch in
 * the store, resigns when the claim is refused (see {@link TermLedger}), and campaigns again with a
 * fresh coordinator after a campaign that failed transiently. The test thread acts only at
 * quiescent instants (every contender asleep), so its observations and the contenders' beliefs
 * refer to the same moment. Violations of the properties are thrown as {@link AssertionError}s
 * naming the instant and the lease.
 */
final class LeaseWorld<E extends LeaseElection> {

  /** After a step, time moves on by this much so that every contender is asleep again. */
  private static final Duration QUIESCE = Duration.ofNanos(1_000);

  private final SimulatedTime time;
  private final E election;
  private final CheckpointStore observer;
  private final List<Slot> slots = new ArrayList<>();
  private final TermLedger ledger;
  private int processes;

  LeaseWorld(SimulatedTime time, E election, LeaseSteps.Scenario<E> scenario) throws Exception {
    this.time = time;
    this.election = election;
    this.observer = openStore();
    observer.commit(Map.of("seed", "0"), new FakeTerm("seed", scenario.initialStoreEpoch()));
    this.ledger = new TermLedger(observer);
    if (scenario.initialLease() >= 0) {
      election.leaveLease("gone", scenario.initialLease());
    }
    time.join();
    for (int i = 0; i < scenario.contenders(); i++) {
      Slot s = new Slot(LeaseSteps.name(i));
      slots.add(s);
      s.start(true);
    }
  }

  E election() {
    return election;
  }

  /** Applies one step, lets its time pass, and checks every property. */
  void run(LeaseSteps.Step<E> step) throws Exception {
    restartResigned();
    // A contender just (re)started is campaigning, not asleep: let it reach its first sleep, or the
    // step (a lease edit's read-modify-replace, say) races its writes and fails on a conflict.
    time.sleep(QUIESCE);
    ledger.tampered(step.op().tampers());
    step.op().apply(this);
    time.sleep(Duration.ofSeconds(step.afterSeconds()));
    time.sleep(QUIESCE);
    check();
  }

  private CheckpointStore openStore() throws Exception {
    CheckpointStore store = election.openStore();
    if (!(store instanceof EpochFloor) || !(store instanceof EpochClaim)) {
      throw new IllegalStateException(
          "the property world needs a store that is an EpochFloor and an EpochClaim: " + store);
    }
    return store;
  }

  private final class Slot {
    final String name;
    String identity;
    int incarnation;
    LeaseElection.Candidate candidate;
    CheckpointStore store;
    Contender contender;
    volatile boolean resigned;

    Slot(String name) {
      this.name = name;
    }

    /** The engine's answer to a refused claim: stop this coordinator (it releases the lease). */
    void resign() {
      resigned = true;
      contender.requestStop();
    }

    void start(boolean newIdentity) throws Exception {
      if (newIdentity) {
        identity = name + "-p" + (++processes);
      }
      incarnation++;
      CheckpointStore mine = openStore();
      store = mine;
      candidate = election.join(identity, Optional.of(TermLedger.floor(mine)));
      resigned = false;
      RecordingLeadershipListener listener = ledger.listener(mine, this::resign);
      contender =
          Contender.start(time, identity + "#" + incarnation, candidate.coordinator(), listener);
    }

    void requestStop(boolean crash) {
      if (crash) {
        candidate.kill();
      }
      contender.requestStop();
    }

    /** The coordinator's run ended by itself: a campaign that failed (an outage, say). */
    boolean campaignFailed() {
      return !resigned && !contender.participant().thread().isAlive();
    }

    void awaitStopped() throws Exception {
      try {
        contender.awaitEnded(time);
      } finally {
        store.close();
      }
    }
  }

  void commit(int slot) {
    Slot s = slots.get(slot);
    ledger.commit(s.contender.listener(), s.store, "k." + s.name, leaders());
  }

  void pause(int slot, int seconds) {
    slots.get(slot).candidate.pauseBeforeNextWrite(Duration.ofSeconds(seconds));
  }

  void outage(int slot, int seconds) {
    slots.get(slot).candidate.cutOffFor(Duration.ofSeconds(seconds));
  }

  void restart(int slot, boolean crash, boolean newIdentity) throws Exception {
    Slot s = slots.get(slot);
    s.requestStop(crash);
    s.awaitStopped();
    s.start(newIdentity);
  }

  private List<Term> leaders() {
    return ledger.leaders(slots.stream().map(s -> s.contender.listener()).toList());
  }

  /**
   * The engine campaigns again with a fresh coordinator after a refused claim, and after a campaign
   * that failed transiently (it backs off first; here the restart waits for the next step).
   */
  private void restartResigned() throws Exception {
    for (Slot s : slots) {
      if (s.resigned || s.campaignFailed()) {
        s.awaitStopped();
        s.start(false);
      }
    }
  }

  private void check() {
    try {
      ledger.check(leaders());
    } catch (AssertionError e) {
      throw new AssertionError(
          e.getMessage() + " (at " + time.instant() + ", lease " + election.describeLease() + ")",
          e);
    }
  }

  /** Stops every contender and leaves the timeline. */
  void close() throws Exception {
    try {
      for (Slot s : slots) {
        s.requestStop(false);
      }
      for (Slot s : slots) {
        s.awaitStopped();
      }
    } finally {
      observer.close();
      time.leave();
    }
  }
}
