package io.sf2loki.coordinate.filelease;

import io.sf2loki.coordinate.support.Contender;
import io.sf2loki.coordinate.support.FaultyLeaseStorage;
import io.sf2loki.coordinate.support.FencedStore;
import io.sf2loki.coordinate.support.Fences;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.spi.StoreException;
import io.sf2loki.spi.Term;
import io.sf2loki.spi.testing.RecordingLeadershipListener;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Two or three file_lease contenders on one lease file and one real state file, on simulated time.
 * Every contender behaves like the engine: at each acquire it stamps its epoch into the store with
 * a fenced commit. The test thread acts only at quiescent instants (every contender asleep), so its
 * observations and the contenders' beliefs refer to the same moment. Violations of the properties
 * are thrown as {@link AssertionError}s naming the step.
 */
final class FileLeaseWorld {

  /** After a step, time moves on by this much so that every contender is asleep again. */
  private static final Duration QUIESCE = Duration.ofNanos(1_000);

  private final FileLeaseFixture fx;
  private final Path statePath;
  private final FencedStore observer;
  private final List<Slot> slots = new ArrayList<>();
  private final List<RecordingLeadershipListener> listeners = new ArrayList<>();
  private final List<Term> grants = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();
  private long maxPersisted;
  private boolean tampered;
  private int commits;

  FileLeaseWorld(Path dir, int contenders, long initialStoreEpoch) {
    this.fx = new FileLeaseFixture(dir);
    this.statePath = dir.resolve("state.json");
    this.observer = StoreKind.fileStore(statePath);
    observer.commit(Map.of("seed", "0"), Fences.atEpoch(initialStoreEpoch));
    maxPersisted = initialStoreEpoch;
    fx.time.join();
    for (int i = 0; i < contenders; i++) {
      Slot s = new Slot(FileLeaseSteps.name(i));
      slots.add(s);
      s.start();
    }
  }

  /** Applies one step, lets its time pass, and checks every property. */
  void run(FileLeaseSteps.Step step) throws Exception {
    tampered |= step.op().tampers();
    step.op().apply(this);
    fx.time.sleep(Duration.ofSeconds(step.afterSeconds()));
    fx.time.sleep(QUIESCE);
    check(step);
  }

  private final class Slot {
    final String name;
    int incarnation;
    FaultyLeaseStorage storage;
    FencedStore store;
    Contender contender;

    Slot(String name) {
      this.name = name;
    }

    void start() {
      incarnation++;
      String holder = name + "#" + incarnation;
      FencedStore mine = StoreKind.fileStore(statePath);
      store = mine;
      storage = new FaultyLeaseStorage(new FileLeaseFile(fx.lease), fx.time);
      RecordingLeadershipListener listener =
          new RecordingLeadershipListener(t -> granted(mine, t), t -> {});
      synchronized (FileLeaseWorld.this) {
        listeners.add(listener);
      }
      contender =
          Contender.start(
              fx.time, holder, fx.coordinator(storage, holder, Optional.of(mine)), listener);
    }

    void requestStop(boolean crash) {
      if (crash) {
        storage.pauseBeforeNextWrite(Duration.ZERO);
        storage.readsFail(true); // a dead process neither renews nor releases
        storage.writesFail(true);
      }
      contender.requestStop();
    }

    void awaitStopped() throws Exception {
      Thread t = contender.participant().thread();
      fx.time.awaitCondition(() -> !t.isAlive(), Duration.ofMinutes(10), Duration.ofSeconds(1));
      contender.participant().join(Duration.ofSeconds(10));
      store.close();
    }
  }

  /** The engine's stamp at acquire, and the grant-order properties. Runs on a contender thread. */
  private void granted(FencedStore store, Term term) {
    synchronized (this) {
      long floor = observer.persistedEpoch().orElse(0);
      if (term.epoch() <= floor) {
        violations.add("granted " + term.describe() + " at or below the store floor " + floor);
      }
      if (!grants.isEmpty() && term.epoch() <= grants.get(grants.size() - 1).epoch()) {
        violations.add(
            "granted " + term.describe() + " after " + grants.get(grants.size() - 1).describe());
      }
      grants.add(term);
    }
    try {
      store.commit(Map.of("leader", term.holder()), term);
    } catch (StoreException e) {
      synchronized (this) {
        violations.add("stamp at acquire of " + term.describe() + " refused: " + e.getMessage());
      }
    }
  }

  void commit(int slot) {
    Slot s = slots.get(slot);
    Optional<Term> held = s.contender.listener().held();
    if (held.isEmpty()) {
      return;
    }
    Term t = held.get();
    boolean current = t.isCurrent();
    boolean onlyHolder = current && currentTerms().size() == 1;
    long newest = newestGrant();
    boolean accepted;
    try {
      s.store.commit(Map.of("k." + s.name, Integer.toString(++commits)), t);
      accepted = true;
    } catch (StoreException e) {
      accepted = false;
    }
    if (onlyHolder && !accepted) {
      fail("commit by the only current leader " + t.describe() + " was fenced");
    }
    if (accepted && !current) {
      fail("commit by " + t.describe() + " was accepted although its term ended");
    }
    if (accepted && t.epoch() < newest) {
      fail("stale commit by " + t.describe() + " accepted after epoch " + newest + " was granted");
    }
  }

  void pause(int slot, int seconds) {
    slots.get(slot).storage.pauseBeforeNextWrite(Duration.ofSeconds(seconds));
  }

  void restart(int slot, boolean crash) throws Exception {
    Slot s = slots.get(slot);
    s.requestStop(crash);
    s.awaitStopped();
    s.start();
  }

  void deleteLease() throws Exception {
    Files.deleteIfExists(fx.lease);
  }

  void truncateLease(int keepBytes) throws Exception {
    if (Files.exists(fx.lease)) {
      byte[] all = Files.readAllBytes(fx.lease);
      Files.write(fx.lease, Arrays.copyOf(all, Math.min(keepBytes, Math.max(0, all.length - 1))));
    }
  }

  void corruptLease() throws Exception {
    Files.writeString(fx.lease, "{\"holder\": \"a#1\", \"expi", StandardCharsets.UTF_8);
  }

  void lowerLeaseEpoch(int by) throws Exception {
    if (fx.read() instanceof LeaseRead.Present p) {
      FileLeaseDocument d = p.document();
      fx.write(new FileLeaseDocument(d.holder(), d.expiresAt(), Math.max(0, d.epoch() - by)));
    }
  }

  private List<Term> currentTerms() {
    List<Term> current = new ArrayList<>();
    for (Slot s : slots) {
      s.contender.currentTerm().ifPresent(current::add);
    }
    return current;
  }

  private synchronized long newestGrant() {
    return grants.isEmpty() ? 0 : grants.get(grants.size() - 1).epoch();
  }

  private void check(FileLeaseSteps.Step step) {
    synchronized (this) {
      for (RecordingLeadershipListener l : listeners) {
        violations.addAll(l.violations());
      }
      if (!violations.isEmpty()) {
        fail(String.join("; ", violations));
      }
    }
    long persisted = observer.persistedEpoch().orElse(0);
    if (persisted < maxPersisted) {
      fail("persisted epoch fell from " + maxPersisted + " to " + persisted);
    }
    maxPersisted = persisted;
    List<Term> current = currentTerms();
    if (current.stream().mapToLong(Term::epoch).distinct().count() < current.size()) {
      fail("two contenders lead with one epoch: " + current);
    }
    if (!tampered && current.size() > 1) {
      fail("two current terms although nobody touched the lease: " + current);
    }
  }

  private void fail(String what) {
    throw new AssertionError(what + " (at " + fx.time.instant() + ")");
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
      fx.time.leave();
    }
  }
}
