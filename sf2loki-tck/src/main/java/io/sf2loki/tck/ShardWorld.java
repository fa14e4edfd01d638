package io.sf2loki.tck;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Term;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replica slots running one coordinator per shard of a {@link ShardElection}, each shard with its
 * own checkpoint store and {@link TermLedger}, on simulated time. A replica behaves like the
 * daemon: per shard an engine that claims the epoch at acquire, resigns when the claim is refused
 * and campaigns again with a fresh coordinator. After every step each shard's ledger is checked
 * (epochs only grow, never two leaders, no stale commit lands); {@link #settle} checks that every
 * shard is led and no replica leads more than its quota.
 */
final class ShardWorld<E extends ShardElection> {

  private static final Duration QUIESCE = Duration.ofNanos(1_000);

  private final SimulatedTime time;
  private final E election;
  private final Map<String, CheckpointStore> observers = new LinkedHashMap<>();
  private final Map<String, TermLedger> ledgers = new LinkedHashMap<>();
  private final List<Process> slots = new ArrayList<>();
  private int processes;

  ShardWorld(SimulatedTime time, E election, int slots, int alive) throws Exception {
    this.time = time;
    this.election = election;
    for (String shard : election.shards()) {
      CheckpointStore observer = election.openStore(shard);
      observers.put(shard, observer);
      ledgers.put(shard, new TermLedger(observer));
    }
    time.join();
    for (int i = 0; i < slots; i++) {
      Process p = new Process(ShardSteps.name(i));
      this.slots.add(p);
      if (i < alive) {
        p.start();
      }
    }
  }

  /** Applies one step, lets its time pass, and checks every shard's ledger. */
  void run(ShardSteps.Step<E> step) throws Exception {
    restartResigned();
    time.sleep(QUIESCE);
    step.op().apply(this);
    time.sleep(Duration.ofSeconds(step.afterSeconds()));
    time.sleep(QUIESCE);
    check();
  }

  /** One process per slot, stopped or killed and started again by the steps. */
  private final class Process {
    final String slot;
    ShardElection.Replica replica;
    String identity = "";
    final Map<String, Seat> seats = new LinkedHashMap<>();
    boolean alive;

    Process(String slot) {
      this.slot = slot;
    }

    void start() throws Exception {
      identity = slot + "-p" + (++processes);
      replica = election.join(identity);
      for (String shard : election.shards()) {
        seats.put(shard, new Seat(this, shard));
      }
      alive = true;
    }

    void stop(boolean crash) throws Exception {
      if (!alive) {
        return;
      }
      if (crash) {
        replica.kill();
      }
      seats.values().forEach(s -> s.contender.requestStop());
      for (Seat s : seats.values()) {
        s.awaitStopped();
      }
      seats.clear();
      if (!crash) {
        replica.balance().close();
      }
      alive = false;
    }
  }

  /** One shard's engine in a process: a contender and the store it commits through. */
  private final class Seat {
    final Process process;
    final String shard;
    final CheckpointStore store;
    final Contender contender;
    volatile boolean resigned;

    Seat(Process process, String shard) throws Exception {
      this.process = process;
      this.shard = shard;
      this.store = election.openStore(shard);
      RecordingLeadershipListener listener = ledgers.get(shard).listener(store, this::resign);
      this.contender =
          Contender.start(
              time,
              process.identity + "/" + shard,
              process.replica.coordinator(shard, Optional.of(TermLedger.floor(store))),
              listener);
    }

    void resign() {
      resigned = true;
      contender.requestStop();
    }

    boolean ended() {
      return resigned || !contender.participant().thread().isAlive();
    }

    void awaitStopped() throws Exception {
      try {
        contender.awaitEnded(time);
      } finally {
        contender.coordinator().close();
        store.close();
      }
    }
  }

  void commit(int slot, int shard) {
    Process p = slots.get(slot % slots.size());
    String name = election.shards().get(shard % election.shards().size());
    Seat s = p.seats.get(name);
    if (p.alive && s != null) {
      ledgers.get(name).commit(s.contender.listener(), s.store, "k." + p.slot, leaders(name));
    }
  }

  void kill(int slot) throws Exception {
    slots.get(slot % slots.size()).stop(true);
  }

  void scaleDown(int slot) throws Exception {
    slots.get(slot % slots.size()).stop(false);
  }

  void restart(int slot) throws Exception {
    Process p = slots.get(slot % slots.size());
    p.stop(false);
    p.start();
  }

  /** Starts a process in the first empty slot, if there is one. */
  void scaleUp() throws Exception {
    for (Process p : slots) {
      if (!p.alive) {
        p.start();
        return;
      }
    }
  }

  private List<Term> leaders(String shard) {
    List<RecordingLeadershipListener> listeners = new ArrayList<>();
    for (Process p : slots) {
      Seat s = p.seats.get(shard);
      if (s != null) {
        listeners.add(s.contender.listener());
      }
    }
    return ledgers.get(shard).leaders(listeners);
  }

  /** The engine campaigns again with a fresh coordinator after a refused claim or a failure. */
  private void restartResigned() throws Exception {
    for (Process p : slots) {
      for (String shard : List.copyOf(p.seats.keySet())) {
        Seat s = p.seats.get(shard);
        if (s.ended()) {
          s.awaitStopped();
          p.seats.put(shard, new Seat(p, shard));
        }
      }
    }
  }

  private void check() {
    for (String shard : election.shards()) {
      try {
        ledgers.get(shard).check(leaders(shard));
      } catch (AssertionError e) {
        throw new AssertionError(
            "shard "
                + shard
                + ": "
                + e.getMessage()
                + " (at "
                + time.instant()
                + ", lease "
                + election.describeLease(shard)
                + ")",
            e);
      }
    }
  }

  /**
   * Starts a replica when none is alive, lets the world settle (every lease a dead replica left
   * expires, the roster forgets it, over-quota replicas hand over one shard per renew interval),
   * then checks that every shard has exactly one leader and no replica leads more than {@code
   * ceil(M / N) + slack}.
   */
  void settle() throws Exception {
    if (slots.stream().noneMatch(p -> p.alive)) {
      scaleUp();
    }
    int m = election.shards().size();
    Duration renew = election.renewInterval();
    Duration left = election.ttl().plus(renew.multipliedBy(2L * m + 4));
    while (!left.isNegative()) {
      restartResigned();
      time.sleep(renew);
      left = left.minus(renew);
      check();
    }
    long alive = slots.stream().filter(p -> p.alive).count();
    int cap = (int) ((m + alive - 1) / alive) + election.slack();
    for (String shard : election.shards()) {
      if (leaders(shard).size() != 1) {
        throw new AssertionError(
            "after settling, shard " + shard + " has " + leaders(shard).size() + " leaders");
      }
    }
    for (Process p : slots) {
      long held = p.seats.keySet().stream().filter(s -> isLeading(p, s)).count();
      if (p.alive && held > cap) {
        throw new AssertionError(
            "after settling, replica "
                + p.identity
                + " leads "
                + held
                + " shards, above its cap "
                + cap
                + " ("
                + m
                + " shards, "
                + alive
                + " replicas)");
      }
    }
  }

  private boolean isLeading(Process p, String shard) {
    Seat s = p.seats.get(shard);
    return s != null && ledgers.get(shard).leading(s.contender.listener()).isPresent();
  }

  /** Stops every process gracefully and leaves the timeline. */
  void close() throws Exception {
    try {
      for (Process p : slots) {
        p.stop(false);
      }
    } finally {
      for (CheckpointStore observer : observers.values()) {
        observer.close();
      }
      time.leave();
    }
  }
}
