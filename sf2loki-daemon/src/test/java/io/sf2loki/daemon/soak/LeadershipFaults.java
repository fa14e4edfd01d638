package io.sf2loki.daemon.soak;

import io.sf2loki.daemon.ha.DaemonProcess;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;

/**
 * The process and lease faults, one at a time: each is injected, undone (a restart, a SIGCONT), and
 * followed by a wait until both replicas answer again and one leads, so the next fault meets a
 * working pair. A fault that takes the leader away also waits for the next term and records how
 * long it took (the failover).
 */
final class LeadershipFaults {

  /**
   * How long a replica, or a leader, may take to come back before the soak calls it a problem (a
   * bound: it scales with {@link TestTiming}).
   */
  static final Duration RECOVERY = TestTiming.seconds(60);

  private static final String[] CORRUPT_LEASES = {
    "not a lease at all",
    "{\"holder\": \"a-1\", \"expires_at\": \"20",
    "{\"holder\": 7, \"expires_at\": true, \"epoch\": \"x\"}",
    "",
    "\u0000\u0001\u0002\u00ff",
    "[]"
  };

  private final SoakWorld world;
  private final LeaderWatch watch;
  private final FaultTally tally;
  private final Polling polling;

  LeadershipFaults(SoakWorld world, LeaderWatch watch, FaultTally tally, Polling polling) {
    this.world = world;
    this.watch = watch;
    this.tally = tally;
    this.polling = polling;
  }

  void inject(PlannedFault f) throws IOException, InterruptedException {
    Optional<LeaderWatch.Leader> leader = watch.awaitLeader(RECOVERY);
    if (leader.isEmpty()) {
      tally.problem("no leader for " + RECOVERY.toSeconds() + " s before " + f.kind());
      return;
    }
    SoakNode target =
        switch (f.kind()) {
          case KILL_STANDBY, PAUSE_STANDBY -> world.other(leader.get().node());
          default -> leader.get().node();
        };
    long epochBefore = watch.highestEpoch();
    long start = polling.now();
    apply(f, target);
    tally.injected(f.kind());
    if (f.kind().endsTheLeadersTerm()) {
      if (watch.awaitEpochAbove(epochBefore, RECOVERY)) {
        tally.failover(f.kind(), polling.since(start));
      } else {
        tally.problem(
            "no new term within " + RECOVERY.toSeconds() + " s of " + f + " on " + target);
      }
    }
    boolean recovered =
        polling.until(
            () ->
                world.nodes().stream().allMatch(n -> n.readyz().status() > 0)
                    && watch.leader().isPresent(),
            RECOVERY);
    if (!recovered) {
      tally.problem("the pair did not recover within " + RECOVERY.toSeconds() + " s of " + f);
    }
  }

  private void apply(PlannedFault f, SoakNode target) throws IOException, InterruptedException {
    DaemonProcess p = target.process().orElseThrow();
    switch (f.kind()) {
      case KILL_LEADER, KILL_STANDBY -> {
        target.expectExit();
        p.kill9();
        polling.sleeper().sleep(f.length());
        world.launch(target);
      }
      case PAUSE_LEADER, PAUSE_STANDBY -> {
        target.paused(true); // first, so the watch does not wait on a frozen endpoint
        p.sigstop();
        polling.sleeper().sleep(f.length());
        p.sigcont();
        target.paused(false);
      }
      case TERM_LEADER -> {
        target.expectExit();
        p.sigterm();
        int code = p.awaitExit(TestTiming.seconds(20));
        if (code != 0) {
          tally.problem(p.name() + " exited " + code + " after SIGTERM, not 0");
          p.kill9();
        }
        polling.sleeper().sleep(f.length());
        world.launch(target);
      }
      case DELETE_LEASE -> Files.deleteIfExists(world.leasePath());
      case CORRUPT_LEASE ->
          // in place, not by rename: a torn or foreign write as a reader can meet it
          Files.write(
              world.leasePath(),
              CORRUPT_LEASES[f.variant() % CORRUPT_LEASES.length].getBytes(StandardCharsets.UTF_8));
      default -> throw new IllegalArgumentException(f.kind() + " is not a leadership fault");
    }
  }
}
