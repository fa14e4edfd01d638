package io.sf2loki.coordinate.filelease;

import io.sf2loki.coordinate.support.FaultyLeaseStorage;
import io.sf2loki.coordinate.support.FencedStore;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.coordinate.support.TermLedger;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.tck.RecordingLeadershipListener;
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
 * Every contender behaves like the engine: at each acquire it claims its epoch in the store, and
 * resigns when the claim is refused (see {@link TermLedger}). The test thread acts only at
 * quiescent instants (every contender asleep), so its observations and the contenders' beliefs
 * refer to the same moment. Violations of the properties are thrown as {@link AssertionError}s
 * naming the step.
 */
final class FileLeaseWorld {

  /** After a step, time moves on by this much so that every contender is asleep again. */
  private static final Duration QUIESCE = Duration.ofNanos(1_000);

  private final FileLeaseFixture fx;
  private final Path statePath;
  private final FencedStore observer;
  private final List<Slot> slots = new ArrayList<>();
  private final TermLedger ledger;

  FileLeaseWorld(Path dir, int contenders, long initialStoreEpoch) {
    this.fx = new FileLeaseFixture(dir);
    this.statePath = dir.resolve("state.json");
    this.observer = StoreKind.fileStore(statePath);
    observer.commit(Map.of("seed", "0"), new FakeTerm("seed", initialStoreEpoch));
    this.ledger = new TermLedger(observer);
    fx.time.join();
    for (int i = 0; i < contenders; i++) {
      Slot s = new Slot(FileLeaseSteps.name(i));
      slots.add(s);
      s.start();
    }
  }

  /** Applies one step, lets its time pass, and checks every property. */
  void run(FileLeaseSteps.Step step) throws Exception {
    restartResigned();
    ledger.tampered(step.op().tampers());
    step.op().apply(this);
    fx.time.sleep(Duration.ofSeconds(step.afterSeconds()));
    fx.time.sleep(QUIESCE);
    check();
  }

  private final class Slot {
    final String name;
    int incarnation;
    FaultyLeaseStorage storage;
    FencedStore store;
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

    void start() {
      incarnation++;
      String holder = name + "#" + incarnation;
      FencedStore mine = StoreKind.fileStore(statePath);
      store = mine;
      storage = new FaultyLeaseStorage(new FileLeaseFile(fx.lease), fx.time);
      resigned = false;
      RecordingLeadershipListener listener = ledger.listener(mine, this::resign);
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

  void commit(int slot) {
    Slot s = slots.get(slot);
    ledger.commit(s.contender.listener(), s.store, "k." + s.name, leaders());
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

  private List<Term> leaders() {
    return ledger.leaders(slots.stream().map(s -> s.contender.listener()).toList());
  }

  /** The engine campaigns again with a fresh coordinator after a refused claim. */
  private void restartResigned() throws Exception {
    for (Slot s : slots) {
      if (s.resigned) {
        s.awaitStopped();
        s.start();
      }
    }
  }

  private void check() {
    try {
      ledger.check(leaders());
    } catch (AssertionError e) {
      fail(e.getMessage());
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
