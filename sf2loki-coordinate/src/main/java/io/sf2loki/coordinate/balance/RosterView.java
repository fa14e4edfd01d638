package io.sf2loki.coordinate.balance;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica's view of the {@link Roster}: the live members it last read (itself always included),
 * each with its expiry, refreshed by heartbeats and reads. A member whose entry has expired since
 * the last read still counts until a read confirms it is gone ({@link #outdated} says when a read
 * is worth it): a heartbeat of that member may have landed since, and dropping it on the clock
 * alone would let this replica claim beyond its true cap whenever a read failed or came late. A
 * failed heartbeat or read is counted ({@code sf2loki_shard_roster_failures_total}) and warned
 * about once per streak of failures; the view then keeps the last members it saw (one, itself, when
 * it never read the roster: availability over balance). Its I/O is called by one thread at a time
 * (the replica's {@link RosterThread}); its queries read one immutable snapshot and may be called
 * from any thread.
 */
final class RosterView {

  private static final Logger LOG = LoggerFactory.getLogger(RosterView.class);

  private final Roster roster;
  private final String replica;
  private final Duration ttl;
  private final Clock clock;
  private final Ticker ticker;
  private final Counter failures;
  private volatile Map<String, Instant> others = Map.of();
  private volatile long seenAtNanos;
  private volatile boolean seen;
  private volatile long triedAtNanos;
  private volatile boolean tried;
  private volatile boolean failing;

  RosterView(
      Roster roster,
      String replica,
      Duration ttl,
      Clock clock,
      Ticker ticker,
      MeterRegistry metrics) {
    this.roster = Objects.requireNonNull(roster, "roster");
    this.replica = Objects.requireNonNull(replica, "replica");
    this.ttl = Objects.requireNonNull(ttl, "ttl");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.failures =
        Counter.builder("sf2loki_shard_roster_failures_total")
            .description(
                "Failed heartbeats or reads of the roster of live replicas; the shard quota keeps"
                    + " the last known number of replicas")
            .register(metrics);
  }

  /** Writes this replica's entry, a ttl from now, and takes the live members from the result. */
  void heartbeat() {
    markTried();
    try {
      RosterDocument written =
          roster.heartbeat(replica, clock.instant().plus(ttl), clock.instant());
      saw(written);
    } catch (RosterException | RuntimeException e) {
      // a RuntimeException too: on the roster thread nobody else would see it
      failed("heartbeat", e);
    }
  }

  /** Reads the live members without writing. */
  void read() {
    markTried();
    try {
      saw(roster.read());
    } catch (RosterException | RuntimeException e) {
      failed("read", e);
    }
  }

  /** Removes this replica's entry; best effort (it expires by itself otherwise). */
  void leave() {
    try {
      roster.leave(replica, clock.instant());
      LOG.info("left the roster {}", roster.location());
    } catch (RosterException | RuntimeException e) {
      failures.increment();
      LOG.warn("could not leave the roster ({}); the entry expires by itself", describe(e));
    }
  }

  /** The live members last read, this replica among them. */
  Set<String> members() {
    Set<String> live = new TreeSet<>(others.keySet());
    live.add(replica);
    return live;
  }

  /** Whether an entry of the last read has expired since: a read would say whether it is gone. */
  boolean outdated() {
    Instant now = clock.instant();
    return others.values().stream().anyMatch(expiry -> !expiry.isAfter(now));
  }

  /** How long until the next entry of the last read expires; empty when none is due to. */
  Optional<Duration> untilNextExpiry() {
    Instant now = clock.instant();
    return others.values().stream()
        .filter(expiry -> expiry.isAfter(now))
        .min(Instant::compareTo)
        .map(expiry -> Duration.between(now, expiry));
  }

  /** Whether the last heartbeat or read failed. */
  boolean failing() {
    return failing;
  }

  /** How long ago a read or heartbeat was last tried, failed or not; the longest when never. */
  long triedAgoNanos() {
    return tried ? ticker.nanoTime() - triedAtNanos : Long.MAX_VALUE;
  }

  /** How long ago the members were last seen; the longest possible value when never. */
  long ageNanos() {
    return seen ? ticker.nanoTime() - seenAtNanos : Long.MAX_VALUE;
  }

  String location() {
    return roster.location();
  }

  private void markTried() {
    triedAtNanos = ticker.nanoTime();
    tried = true;
  }

  private void saw(RosterDocument document) {
    Map<String, Instant> live = new TreeMap<>(document.live(clock.instant()).members());
    live.remove(replica);
    others = Map.copyOf(live);
    seenAtNanos = ticker.nanoTime();
    seen = true;
    if (failing) {
      failing = false;
      LOG.info("the roster {} works again: {} live replica(s)", roster.location(), live.size() + 1);
    }
  }

  private void failed(String operation, Exception e) {
    failures.increment();
    if (!failing) {
      failing = true;
      LOG.warn(
          "roster {} failed: {}; balancing shards with the last known {} replica(s) until it"
              + " works again (held shards keep running)",
          operation,
          describe(e),
          members().size());
    }
  }

  private static String describe(Exception e) {
    return e instanceof RosterException ? e.getMessage() : e.toString();
  }
}
