package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.support.Contender;
import io.sf2loki.coordinate.support.FencedStore;
import io.sf2loki.coordinate.support.Fences;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.StoreException;
import io.sf2loki.spi.Term;
import io.sf2loki.spi.testing.RecordingLeadershipListener;
import io.sf2loki.spi.testing.SimulatedTime;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Two or three k8s_lease contenders (the real {@link K8sLeaseCoordinator}) on one {@link
 * FakeLeaseApiServer} and one real state file, on simulated time. Every contender behaves like the
 * engine: at each acquire it stamps its epoch into the store with a fenced commit. The test thread
 * acts only at quiescent instants (every contender asleep), so its observations and the contenders'
 * beliefs refer to the same moment. Violations are thrown as {@link AssertionError}s.
 */
final class K8sLeaseWorld {

  /** After a step, time moves on by this much so that every contender is asleep again. */
  private static final Duration QUIESCE = Duration.ofNanos(1_000);

  private final SimulatedTime time = new SimulatedTime(Instant.parse("2026-01-01T12:00:00Z"));
  private final K8sLeaseConfig config =
      new K8sLeaseConfig(
          "default",
          "sf2loki-leader",
          Optional.empty(),
          Duration.ofSeconds(30),
          Duration.ofSeconds(10),
          Optional.empty());
  private final FakeLeaseApiServer server = new FakeLeaseApiServer();
  private final CoordinationV1Api kubectl = server.api(null);
  private final Path statePath;
  private final FencedStore observer;
  private final List<Slot> slots = new ArrayList<>();
  private final List<RecordingLeadershipListener> listeners = new ArrayList<>();
  private final List<Term> grants = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();
  private long maxPersisted;
  private boolean tampered;
  private int commits;
  private int pods;

  K8sLeaseWorld(Path dir, K8sLeaseSteps.Scenario scenario) throws ApiException {
    this.statePath = dir.resolve("state.json");
    this.observer = StoreKind.fileStore(statePath);
    observer.commit(Map.of("seed", "0"), Fences.atEpoch(scenario.initialStoreEpoch()));
    maxPersisted = scenario.initialStoreEpoch();
    if (scenario.initialLease() >= 0) {
      kubectl
          .createNamespacedLease(
              config.namespace(),
              LeaseBodies.create(config, "gone-pod", scenario.initialLease(), time.instant()))
          .execute();
    }
    time.join();
    for (int i = 0; i < scenario.contenders(); i++) {
      Slot s = new Slot(K8sLeaseSteps.name(i));
      slots.add(s);
      s.start(true);
    }
  }

  /** Applies one step, lets its time pass, and checks every property. */
  void run(K8sLeaseSteps.Step step) throws Exception {
    tampered |= step.op().tampers();
    step.op().apply(this);
    time.sleep(Duration.ofSeconds(step.afterSeconds()));
    time.sleep(QUIESCE);
    check();
  }

  private final class Slot {
    final String name;
    String identity;
    int incarnation;
    FaultyTransport transport;
    FencedStore store;
    Contender contender;

    Slot(String name) {
      this.name = name;
    }

    void start(boolean newPod) {
      if (newPod) {
        identity = name + "-pod" + (++pods);
      }
      incarnation++;
      FencedStore mine = StoreKind.fileStore(statePath);
      store = mine;
      transport = new FaultyTransport(time);
      RecordingLeadershipListener listener =
          new RecordingLeadershipListener(t -> granted(mine, t), t -> {});
      synchronized (K8sLeaseWorld.this) {
        listeners.add(listener);
      }
      CoordinatorEnvironment env =
          new CoordinatorEnvironment(
              time.clock(), time.ticker(), Optional.of(mine), new SimpleMeterRegistry());
      K8sLeaseCoordinator coordinator =
          new K8sLeaseCoordinator(server.api(transport), identity, config, env, time::sleep);
      contender = Contender.start(time, identity + "#" + incarnation, coordinator, listener);
    }

    void requestStop(boolean crash) {
      if (crash) {
        transport.downForever();
      }
      contender.requestStop();
    }

    void awaitStopped() throws Exception {
      Thread t = contender.participant().thread();
      time.awaitCondition(() -> !t.isAlive(), Duration.ofMinutes(10), Duration.ofSeconds(1));
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
    slots.get(slot).transport.pauseBeforeNextWrite(Duration.ofSeconds(seconds));
  }

  void outage(int slot, int seconds) {
    slots.get(slot).transport.downFor(Duration.ofSeconds(seconds));
  }

  void restart(int slot, boolean crash, boolean newPod) throws Exception {
    Slot s = slots.get(slot);
    s.requestStop(crash);
    s.awaitStopped();
    s.start(newPod);
  }

  void deleteLease() throws ApiException {
    try {
      kubectl.deleteNamespacedLease(config.name(), config.namespace()).execute();
    } catch (ApiException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  /** kubectl edit: read, change the spec, replace with the read resourceVersion. */
  void editLease(UnaryOperator<V1LeaseSpec> edit) throws ApiException {
    V1Lease lease;
    try {
      lease = kubectl.readNamespacedLease(config.name(), config.namespace()).execute();
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return;
      }
      throw e;
    }
    lease.spec(edit.apply(lease.getSpec() == null ? new V1LeaseSpec() : lease.getSpec()));
    kubectl.replaceNamespacedLease(config.name(), config.namespace(), lease).execute();
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

  private void check() {
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
      fail("two current terms although nobody touched the Lease: " + current);
    }
  }

  private void fail(String what) {
    throw new AssertionError(what + " (at " + time.instant() + ", Lease " + leaseNow() + ")");
  }

  private String leaseNow() {
    return server
        .get(config.namespace(), config.name())
        .map(
            l ->
                "holder="
                    + LeaseBodies.holder(l)
                    + " transitions="
                    + LeaseBodies.epoch(l)
                    + " rv="
                    + LeaseBodies.resourceVersion(l))
        .orElse("absent");
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
