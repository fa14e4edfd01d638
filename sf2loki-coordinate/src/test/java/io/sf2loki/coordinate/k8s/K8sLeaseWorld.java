package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.support.FencedStore;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.coordinate.support.TermLedger;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.tck.RecordingLeadershipListener;
import io.sf2loki.tck.SimulatedTime;
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
 * engine: at each acquire it claims its epoch in the store and resigns when the claim is refused
 * (see {@link TermLedger}). The test thread acts only at quiescent instants (every contender
 * asleep), so its observations and the contenders' beliefs refer to the same moment. Violations are
 * thrown as {@link AssertionError}s.
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
  private final TermLedger ledger;
  private int pods;

  K8sLeaseWorld(Path dir, K8sLeaseSteps.Scenario scenario) throws ApiException {
    this.statePath = dir.resolve("state.json");
    this.observer = StoreKind.fileStore(statePath);
    observer.commit(Map.of("seed", "0"), new FakeTerm("seed", scenario.initialStoreEpoch()));
    this.ledger = new TermLedger(observer);
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
    restartResigned();
    ledger.tampered(step.op().tampers());
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
    volatile boolean resigned;

    Slot(String name) {
      this.name = name;
    }

    /** The engine's answer to a refused claim: stop this coordinator (it releases the lease). */
    void resign() {
      resigned = true;
      contender.requestStop();
    }

    void start(boolean newPod) {
      if (newPod) {
        identity = name + "-pod" + (++pods);
      }
      incarnation++;
      FencedStore mine = StoreKind.fileStore(statePath);
      store = mine;
      transport = new FaultyTransport(time);
      resigned = false;
      RecordingLeadershipListener listener = ledger.listener(mine, this::resign);
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

  void commit(int slot) {
    Slot s = slots.get(slot);
    ledger.commit(s.contender.listener(), s.store, "k." + s.name, leaders());
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

  private List<Term> leaders() {
    return ledger.leaders(slots.stream().map(s -> s.contender.listener()).toList());
  }

  /** The engine campaigns again with a fresh coordinator after a refused claim. */
  private void restartResigned() throws Exception {
    for (Slot s : slots) {
      if (s.resigned) {
        s.awaitStopped();
        s.start(false);
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
