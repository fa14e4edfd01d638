package io.sf2loki.daemon.soak;

import io.sf2loki.daemon.ha.DaemonProcess;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * Polls both replicas on its own thread: who leads, at which epoch, and the longest time without a
 * leader once the first one was seen. Each poll also restarts a replica that ended on its own
 * ({@link SoakWorld#reviveUnexpectedExits()}), so the soak goes on and the exit is reported.
 */
final class LeaderWatch implements AutoCloseable {

  /**
   * A leader as seen by one poll.
   *
   * @param node the replica
   * @param epoch its {@code sf2loki_leader_epoch}
   */
  record Leader(SoakNode node, long epoch) {}

  private final SoakWorld world;
  private final Polling polling;
  private final Thread thread;
  private volatile Leader leader;
  private long highestEpoch;
  private long leaderSeenAt = -1;
  private long longestGapNanos;
  private int bothLeading;
  private volatile boolean measuring = true;
  private volatile String failure;

  /**
   * @param polling the clock, and the pause between two polls
   */
  LeaderWatch(SoakWorld world, Polling polling) {
    this.world = world;
    this.polling = polling;
    this.thread = new Thread(this::loop, "soak-leader-watch");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        world.reviveUnexpectedExits();
        poll();
        polling.sleeper().sleep(polling.interval());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      failure = "the leader watch failed: " + e;
    }
  }

  private void poll() {
    Leader seen = null;
    int leading = 0;
    for (SoakNode node : world.nodes()) {
      DaemonProcess.Readyz r = node.readyz();
      Optional<DaemonProcess> p = node.process();
      if (r.leading() && p.isPresent()) {
        leading++;
        long epoch = (long) p.get().metric("sf2loki_leader_epoch", "");
        if (seen == null || epoch > seen.epoch()) {
          seen = new Leader(node, epoch);
        }
      }
    }
    long now = polling.now();
    synchronized (this) {
      leader = seen;
      if (leading > 1 && measuring) {
        bothLeading++;
      }
      if (seen != null) {
        highestEpoch = Math.max(highestEpoch, seen.epoch());
        if (leaderSeenAt >= 0 && measuring) {
          longestGapNanos = Math.max(longestGapNanos, now - leaderSeenAt);
        }
        leaderSeenAt = now;
      }
    }
  }

  /** The leader of the last poll. */
  Optional<Leader> leader() {
    return Optional.ofNullable(leader);
  }

  /** The highest epoch a leader has shown so far (0 before the first). */
  synchronized long highestEpoch() {
    return highestEpoch;
  }

  /** Waits up to {@code timeout} for a leader; empty when none showed up. */
  Optional<Leader> awaitLeader(Duration timeout) throws InterruptedException {
    polling.until(() -> leader != null, timeout);
    return leader();
  }

  /** Waits up to {@code timeout} for a leader with an epoch above {@code epoch}. */
  boolean awaitEpochAbove(long epoch, Duration timeout) throws InterruptedException {
    return polling.until(
        () -> {
          Leader l = leader;
          return l != null && l.epoch() > epoch;
        },
        timeout);
  }

  /**
   * The longest time between two polls that saw a leader, from the first leader on, until {@link
   * #stopMeasuring()}: failovers, and any time no replica could lead.
   */
  synchronized Duration longestLeaderlessGap() {
    return Duration.ofNanos(Math.max(0, longestGapNanos - polling.interval().toNanos()));
  }

  /**
   * Polls in which both replicas answered {@code /readyz} as a leader: a leader paused past its
   * lease, resumed, still answers as one until its coordinator notices (the store fences it).
   */
  synchronized int pollsWithTwoLeaders() {
    return bothLeading;
  }

  /** Ends the gap measurement (the soak is about to stop the replicas itself). */
  void stopMeasuring() {
    measuring = false;
  }

  /** Why the watch stopped early, if it did. */
  Optional<String> failure() {
    return Optional.ofNullable(failure);
  }

  @Override
  public void close() {
    thread.interrupt();
    try {
      thread.join(TestTiming.seconds(5).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
