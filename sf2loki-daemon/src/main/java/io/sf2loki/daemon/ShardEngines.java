package io.sf2loki.daemon;

import io.sf2loki.config.orgs.Shard;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.daemon.http.Liveness;
import io.sf2loki.daemon.http.OrgProbe;
import io.sf2loki.daemon.http.OrgsLiveness;
import io.sf2loki.daemon.http.OrgsReadiness;
import io.sf2loki.daemon.http.Probe;
import io.sf2loki.daemon.http.Readiness;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.shard.OrgThreads;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.ShardBalance;
import io.sf2loki.spi.StopSignal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engines of a deployment's shards, run side by side in one process. A single-org deployment is
 * one engine run on the calling thread, exactly as before. With {@code orgs}, each org's engine
 * runs on a thread of its own; one that ends (a permanent failure, a finished run) ends alone and
 * the others go on, until each has ended or the stop signal ends them all (each drains within
 * {@code service.shutdown_grace}).
 */
final class ShardEngines implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ShardEngines.class);

  /** One shard's engine and, once it has ended, its outcome. */
  record Running(Shard shard, Engine engine, AtomicReference<EngineOutcome> ended) {}

  private final List<Running> running;
  private final EngineEnvironment environment;
  private final ShardBalance balance;

  private ShardEngines(List<Running> running, EngineEnvironment environment, ShardBalance balance) {
    this.running = running;
    this.environment = environment;
    this.balance = balance;
  }

  /**
   * Wires every shard's engine (no I/O). With two or more orgs, one shard balance (the roster and
   * quota of {@code coordinate.shard_slack}) is shared by every org's coordinator; its meters are
   * the process's, without an {@code org} tag.
   */
  static ShardEngines create(
      Shards shards, EngineEnvironment environment, Map<String, String> variables) {
    ShardBalance balance =
        shards.balance(
            new CoordinatorEnvironment(
                environment.clock(),
                environment.ticker(),
                Optional.empty(),
                environment.metrics(),
                variables,
                environment.threads()));
    List<Running> running = new ArrayList<>();
    try {
      for (Shard shard : shards.all()) {
        running.add(
            new Running(
                shard,
                ConfiguredEngine.create(shard, environment, variables, balance),
                new AtomicReference<>()));
      }
    } catch (RuntimeException e) {
      running.forEach(r -> r.engine().close());
      throw e;
    }
    return new ShardEngines(List.copyOf(running), environment, balance);
  }

  List<Running> all() {
    return running;
  }

  /** {@code /healthz}: the engine's for one org, every org's with several. */
  Probe liveness() {
    return multiOrg()
        ? new OrgsLiveness(probes())
        : new Liveness(running.get(0).engine()::staleHeartbeat);
  }

  /** {@code /readyz}, likewise. */
  Probe readiness() {
    return multiOrg()
        ? new OrgsReadiness(probes())
        : readiness(running.get(0), environment.clock());
  }

  private boolean multiOrg() {
    return running.get(0).shard().org().isPresent();
  }

  private List<OrgProbe> probes() {
    Clock clock = environment.clock();
    return running.stream()
        .map(
            r ->
                new OrgProbe(
                    r.shard().org().orElseThrow().name(),
                    new Liveness(r.engine()::staleHeartbeat),
                    readiness(r, clock),
                    () -> Optional.ofNullable(r.ended().get())))
        .toList();
  }

  private static Readiness readiness(Running r, Clock clock) {
    return new Readiness(
        r.engine()::status, r.shard().config().service().unreadyAfterSinkFailing(), clock);
  }

  /**
   * Runs every engine until each has ended.
   *
   * @return the outcomes, in the shards' order
   */
  List<EngineOutcome> run(StopSignal stop) throws InterruptedException {
    if (running.size() == 1) {
      Running only = running.get(0);
      only.ended().set(only.engine().run(stop));
      return List.of(only.ended().get());
    }
    List<Thread> threads = new ArrayList<>();
    for (Running r : running) {
      String org = r.shard().org().orElseThrow().name();
      Thread thread = new OrgThreads(environment.threads(), org).newThread(() -> runOne(r, stop));
      thread.setName("sf2loki-org-" + org);
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    return running.stream().map(r -> r.ended().get()).toList();
  }

  private static void runOne(Running r, StopSignal stop) {
    String org = r.shard().describe();
    EngineOutcome outcome;
    try {
      outcome = r.engine().run(stop);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      outcome = new EngineOutcome.Stopped();
    } catch (RuntimeException | Error e) {
      LOG.error("the engine of this org broke; the other orgs go on", e);
      outcome =
          new EngineOutcome.Failed(FailureClass.permanent(FailureClass.UNEXPECTED, org, ""), 1, e);
    }
    r.ended().set(outcome);
    if (outcome instanceof EngineOutcome.Failed failed && !stop.isStopRequested()) {
      // The org is in the MDC of this thread: "org=emea: this org stopped after a failure: ..."
      LOG.error(
          "this org stopped after a failure: {}; the other orgs go on, and this one stays stopped"
              + " until the process restarts",
          failed.describe());
    }
  }

  /**
   * Closes every engine, then leaves the shard roster (best effort): after {@link #run} returned,
   * every org was drained and its lease released.
   */
  @Override
  public void close() {
    running.forEach(r -> r.engine().close());
    balance.close();
  }
}
