package io.sf2loki.daemon.soak;

import io.sf2loki.daemon.ha.CheckpointMonitor;
import io.sf2loki.daemon.ha.DaemonProcess;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One store's soak, start to verdict: the pair comes up, the fault streams run, the faults are
 * cleared, everything the org generated until then must arrive, both replicas stop with SIGTERM,
 * and the report states what the fake Loki and the store prove.
 */
final class Soak {

  /** How long the pair may take to deliver everything generated before the cut-off. */
  static final Duration CATCH_UP = TestTiming.seconds(120);

  private final SoakOptions options;
  private final Polling polling;
  private final PrintStream log;

  Soak(SoakOptions options, Ticker ticker, Sleeper sleeper, PrintStream log) {
    this.options = options;
    this.polling = new Polling(ticker, sleeper, Duration.ofMillis(100));
    this.log = log;
  }

  /**
   * Runs {@code kind}'s soak; configurations and logs go to {@code outputDir/<store>}, the lease
   * and the state file to {@code sharedDir}.
   */
  SoakReport run(SoakStore.Kind kind, Path sharedDir) throws IOException, InterruptedException {
    Path runDir = options.outputDir().resolve(kind.type());
    log.printf(
        "soak %s: seed %d, %s of chaos, logs in %s%n",
        kind.type(),
        options.seed(),
        SoakReport.human(options.chaosPerStore()),
        runDir.toAbsolutePath());
    FaultTally tally = new FaultTally();
    try (SoakWorld world = SoakWorld.start(options, kind, runDir, sharedDir)) {
      for (SoakNode node : world.nodes()) {
        world.launch(node);
      }
      return report(world, kind, tally, drive(world, kind, runDir, tally));
    }
  }

  /** What the soak saw while the replicas ran. */
  private record Observed(
      DeliveryAudit audit,
      Duration leaderless,
      int twoLeaders,
      int samples,
      List<String> regressions) {}

  /** The chaos, the catch-up and the final SIGTERMs, watched and sampled throughout. */
  private Observed drive(SoakWorld world, SoakStore.Kind kind, Path runDir, FaultTally tally)
      throws IOException, InterruptedException {
    try (LeaderWatch watch = new LeaderWatch(world, polling);
        CheckpointMonitor sampled = new CheckpointMonitor(world.store()::document)) {
      Duration start = TestTiming.seconds(90);
      if (watch.awaitLeader(start).isEmpty()) {
        tally.problem("no leader within " + start.toSeconds() + " s of the start");
      }
      List<String> dealt = chaos(world, watch, tally, options.seedOf(kind));
      Files.write(runDir.resolve("faults.txt"), dealt);
      log.printf("soak %s: %d faults dealt; catching up%n", kind.type(), dealt.size());
      world.loki().clearFaults();
      world.salesforce().clearFaults();
      DeliveryAudit audit = catchUp(world, watch, tally);
      watch.stopMeasuring();
      stop(world, tally);
      watch.failure().ifPresent(tally::problem);
      return new Observed(
          audit,
          watch.longestLeaderlessGap(),
          watch.pollsWithTwoLeaders(),
          sampled.samples(),
          sampled.regressions());
    }
  }

  /** The verdict: what Loki holds, the store's write log, and the daemons' own logs. */
  private SoakReport report(
      SoakWorld world, SoakStore.Kind kind, FaultTally tally, Observed observed) {
    List<SoakStore.Write> writes = world.store().writes();
    CheckpointMonitor logged = CheckpointMonitor.fed();
    writes.forEach(w -> logged.observe(w.document()));
    List<String> regressions = new ArrayList<>(observed.regressions());
    logged.regressions().forEach(r -> regressions.add("write log: " + r));
    Map<String, String> logs = new LinkedHashMap<>();
    world.incarnations().forEach(p -> logs.put(p.name(), p.log()));
    TermLedger ledger = TermLedger.of(logs, writes);
    List<String> problems = new ArrayList<>();
    world.unexpectedExits().forEach(e -> problems.add("exited on its own: " + e));
    problems.addAll(tally.problems());
    return new SoakReport(
        kind,
        options.seed(),
        options.chaosPerStore(),
        tally.injected(),
        tally.unknownOutcomes(),
        observed.audit().result(world.loki()),
        ledger.terms(),
        world.incarnations().size(),
        ledger.conflicts(),
        regressions,
        observed.samples(),
        writes.size(),
        tally.longestFailover(),
        observed.leaderless(),
        observed.twoLeaders(),
        problems);
  }

  private List<String> chaos(SoakWorld world, LeaderWatch watch, FaultTally tally, long seed)
      throws IOException, InterruptedException {
    LeadershipFaults leadership = new LeadershipFaults(world, watch, tally, polling);
    ProtocolFaults wire = new ProtocolFaults(world.loki(), world.salesforce(), tally, polling);
    return new Chaos(polling)
        .run(
            options.chaosPerStore(),
            new FaultSchedule(FaultKind.Stream.LEADERSHIP, seed, options.ttl()),
            leadership::inject,
            new FaultSchedule(FaultKind.Stream.PROTOCOL, seed, options.ttl()),
            wire::inject);
  }

  /** Cuts off what counts as generated now and waits until all of it arrived. */
  private DeliveryAudit catchUp(SoakWorld world, LeaderWatch watch, FaultTally tally)
      throws InterruptedException {
    if (watch.awaitLeader(LeadershipFaults.RECOVERY).isEmpty()) {
      tally.problem("no leader " + LeadershipFaults.RECOVERY.toSeconds() + " s after the chaos");
    }
    List<LogFileSpec> files = world.salesforce().logFiles();
    DeliveryAudit audit =
        new DeliveryAudit(
            world.salesforce(), files, world.salesforce().eventObjects().rows(SoakWorld.OBJECT));
    new Polling(polling.ticker(), polling.sleeper(), Duration.ofSeconds(1))
        .until(() -> audit.missing(world.loki()).isEmpty(), CATCH_UP);
    return audit;
  }

  /** SIGTERM to both replicas: each must drain, release and exit 0. */
  private void stop(SoakWorld world, FaultTally tally) throws InterruptedException {
    for (SoakNode node : world.nodes()) {
      node.expectExit();
      node.process().ifPresent(DaemonProcess::sigterm);
    }
    for (SoakNode node : world.nodes()) {
      DaemonProcess p = node.process().orElseThrow();
      int code = p.awaitExit(TestTiming.seconds(30));
      if (code != 0) {
        tally.problem(p.name() + " exited " + code + " after the final SIGTERM, not 0");
      }
    }
  }
}
