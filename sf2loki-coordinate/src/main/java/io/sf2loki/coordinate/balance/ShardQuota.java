package io.sf2loki.coordinate.balance;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.ShardBalance;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shard quota of one replica: it leads at most {@code cap = ceil(M / N) + slack} of the M
 * shards, N being the live replicas of the {@link Roster} (itself included; 1 until it has read the
 * roster). Reservations are taken atomically ({@code held + reserved < cap}), so two shards'
 * coordinators of one replica cannot both overshoot; they are granted in the order the coordinators
 * ask. After a confirmed renewal, a replica holding more than its cap hands over the shard it
 * prefers least ({@link Rendezvous}), at most one per renew interval. A member counts until a read
 * of the roster no longer lists it (an entry that expired since the last read is confirmed by a
 * read before the next reservation); a refused coordinator asks {@link #roomMayOpenIn} when to poll
 * again: when the next entry expires, or within a twentieth of a renew interval when a place may
 * come back sooner, rather than a whole renew interval later.
 *
 * <p>Roster I/O runs on the replica's one {@link RosterThread}, never on a coordinator's thread and
 * never under the quota's lock. {@link #tick} only starts a heartbeat that is due, without waiting
 * for it: a leader ticks right before the wait that times its next renewal, so a roster slow to
 * answer (a hung mount, an API server at its read timeout, conflicts backing off) must not hold
 * that renewal back. A reservation, asked before an acquire attempt and never on a renewal's path,
 * waits for the roster call running (a heartbeat, a read) at most a quarter renew interval (a
 * second at most), then decides on the members last seen, as it does when the roster fails; a
 * hand-over decision waits for nothing and takes the members last seen. Thread-safe.
 */
public final class ShardQuota implements ShardBalance {

  private static final Logger LOG = LoggerFactory.getLogger(ShardQuota.class);

  /**
   * While a place may come back soon (another attempt holds it, an expired roster entry awaits
   * confirmation), a refused shard asks again this often per renew interval.
   */
  public static final int IN_FLIGHT_RETRIES = 20;

  /** The longest a reservation waits for the roster call running. */
  private static final Duration MAX_IO_WAIT = Duration.ofSeconds(1);

  private final String replica;
  private final List<String> shards;
  private final int slack;
  private final RosterView roster;
  private final Ticker ticker;
  private final long renewNanos;
  private final Duration ioWait;
  private final RosterThread io;
  private final Set<String> held = new HashSet<>();
  private final Set<String> reserved = new HashSet<>();
  private final Counter balanceHandovers;
  private final Counter stopHandovers;
  private long beatAtNanos;
  private boolean beaten;
  private long shedAtNanos;
  private boolean shed;

  /**
   * @param replica this replica's identity in the roster and in the rendezvous order
   * @param shards the shards' names, at least two
   * @param slack shards above an even share a replica may lead
   * @param roster the roster of live replicas
   * @param ttl how long a roster entry lives without a heartbeat (the lease's ttl)
   * @param renewInterval how often the roster is heartbeated, and the least time between two
   *     hand-overs for balance
   * @param environment clock, ticker and the process's registry the meters are registered with
   */
  public ShardQuota(
      String replica,
      List<String> shards,
      int slack,
      Roster roster,
      Duration ttl,
      Duration renewInterval,
      CoordinatorEnvironment environment) {
    this(
        replica,
        shards,
        slack,
        roster,
        ttl,
        renewInterval,
        environment,
        RosterThread.of(environment.threads()));
  }

  /**
   * As above, with the roster's calls run by {@code rosterIo} instead of a thread of the quota's
   * own: tests on simulated time run each call on a participant thread, so that time stands still
   * while it runs, as it does for any I/O.
   *
   * @param rosterIo runs the calls it is given in that order, each after the previous one ended
   */
  public ShardQuota(
      String replica,
      List<String> shards,
      int slack,
      Roster roster,
      Duration ttl,
      Duration renewInterval,
      CoordinatorEnvironment environment,
      Executor rosterIo) {
    this(
        replica,
        shards,
        slack,
        roster,
        ttl,
        renewInterval,
        environment,
        new RosterThread(rosterIo, () -> {}));
  }

  private ShardQuota(
      String replica,
      List<String> shards,
      int slack,
      Roster roster,
      Duration ttl,
      Duration renewInterval,
      CoordinatorEnvironment environment,
      RosterThread io) {
    this.io = Objects.requireNonNull(io, "io");
    this.replica = Objects.requireNonNull(replica, "replica");
    this.shards = List.copyOf(shards);
    if (slack < 0) {
      throw new IllegalArgumentException("slack must be >= 0: " + slack);
    }
    this.slack = slack;
    this.ticker = environment.ticker();
    this.renewNanos = renewInterval.toNanos();
    Duration quarter = renewInterval.dividedBy(4);
    this.ioWait = quarter.compareTo(MAX_IO_WAIT) < 0 ? quarter : MAX_IO_WAIT;
    MeterRegistry metrics = environment.metrics();
    this.roster = new RosterView(roster, replica, ttl, environment.clock(), ticker, metrics);
    Gauge.builder("sf2loki_shards_held", this, q -> q.held())
        .description("Shards (orgs) this replica leads now")
        .strongReference(true)
        .register(metrics);
    Gauge.builder("sf2loki_shard_cap", this, q -> q.cap())
        .description("The most shards this replica may lead: ceil(shards / replicas) + slack")
        .strongReference(true)
        .register(metrics);
    Gauge.builder("sf2loki_shard_replicas", this, q -> q.roster.members().size())
        .description("Live replicas in the roster as this replica last saw it, itself included")
        .strongReference(true)
        .register(metrics);
    this.balanceHandovers = handovers(metrics, "balance");
    this.stopHandovers = handovers(metrics, "stop");
  }

  private static Counter handovers(MeterRegistry metrics, String reason) {
    return Counter.builder("sf2loki_shard_handovers_total")
        .description("Shards this replica handed over gracefully (drained, then released)")
        .tag("reason", reason)
        .register(metrics);
  }

  /** {@code ceil(shards / replicas) + slack}, replicas counted as at least one. */
  public static int cap(int shards, int replicas, int slack) {
    int n = Math.max(1, replicas);
    return (shards + n - 1) / n + slack;
  }

  /** This replica's cap now. */
  public int cap() {
    return cap(shards.size(), roster.members().size(), slack);
  }

  /** The shards this replica holds now. */
  public synchronized int held() {
    return held.size();
  }

  /** The roster's path or {@code namespace/name}. */
  public String roster() {
    return roster.location();
  }

  /** The live replicas last seen, this one included. */
  public Set<String> replicas() {
    return roster.members();
  }

  /** Starts this replica's heartbeat on the roster thread when it is due; never waits for it. */
  @Override
  public void tick() {
    if (due()) {
      io.start(this::beatIfDue);
    }
  }

  /** On the roster thread. The next one is due a renew interval after this one started. */
  private void beatIfDue() {
    if (due()) {
      markBeaten();
      roster.heartbeat();
    }
  }

  private synchronized boolean due() {
    return !beaten || ticker.nanoTime() - beatAtNanos >= renewNanos;
  }

  private synchronized void markBeaten() {
    beaten = true;
    beatAtNanos = ticker.nanoTime();
  }

  @Override
  public Optional<Reservation> reserve(String shard) {
    tick();
    // the heartbeat just started, or another call: the freshest members; a roster stuck in a call
    // is not waited for again below
    boolean answering = io.await(ioWait);
    if (answering && roster.outdated()) {
      // an entry expired since the last read: gone (a place for us) or heartbeated since
      answering = read();
    }
    Optional<Reservation> granted = tryReserve(shard);
    // Refused at the cap on a view older than a quarter interval: a replica may have died since.
    if (granted.isEmpty() && answering && roster.ageNanos() > renewNanos / 4) {
      read();
      granted = tryReserve(shard);
    }
    return granted;
  }

  /**
   * Reads the roster, unless another roster call is running (it is waited for instead) or a read
   * was tried within the short retry (a failing roster is then not read on every poll of every
   * shard).
   *
   * @return false when a roster call is still running after the wait
   */
  private boolean read() {
    if (roster.triedAgoNanos() >= shortRetryNanos()) {
      io.start(this::readIfNotTried);
    }
    return io.await(ioWait);
  }

  /** On the roster thread. */
  private void readIfNotTried() {
    if (roster.triedAgoNanos() >= shortRetryNanos()) {
      roster.read();
    }
  }

  @Override
  public Optional<Duration> roomMayOpenIn() {
    Duration soon = Duration.ofNanos(shortRetryNanos());
    // Something may change within a fraction of an interval: another attempt holds a place it may
    // give back (two survivors claiming one orphaned shard), a place was given back since the
    // refusal, or an expired entry awaits the read that confirms it gone (not while reads fail:
    // the shards would poll a failing roster every fraction of an interval).
    if (roomOrInFlight() || (roster.outdated() && !roster.failing())) {
      return Optional.of(soon);
    }
    // a millisecond past the expiry: an entry expiring exactly now is not expired yet
    return roster
        .untilNextExpiry()
        .map(d -> d.plusMillis(1))
        .map(d -> d.compareTo(soon) < 0 ? soon : d);
  }

  private long shortRetryNanos() {
    return renewNanos / IN_FLIGHT_RETRIES;
  }

  private synchronized boolean roomOrInFlight() {
    return !reserved.isEmpty() || cap() - held.size() > 0;
  }

  private synchronized Optional<Reservation> tryReserve(String shard) {
    // First come, first served: deferring to a shard this replica prefers would hold a free
    // shard until the preferred one's coordinator polls, up to a renew interval past the
    // documented takeover bound (ttl + renew interval) when a dead replica's shards are orphaned.
    if (held.contains(shard)
        || reserved.contains(shard)
        || cap() - held.size() - reserved.size() <= 0) {
      return Optional.empty();
    }
    reserved.add(shard);
    return Optional.of(new Seat(shard));
  }

  /** Removes this replica from the roster after its shards were handed over. */
  @Override
  public void close() {
    // after a heartbeat still running: written after the leave, it would list this replica again
    io.runLast(roster::leave);
  }

  private synchronized boolean shed(String shard) {
    if (!held.contains(shard)) {
      return false;
    }
    int cap = cap();
    long now = ticker.nanoTime();
    if (held.size() <= cap || (shed && now - shedAtNanos < renewNanos)) {
      return false;
    }
    String least =
        held.stream().sorted(Rendezvous.byPreference(replica).reversed()).findFirst().orElseThrow();
    if (!least.equals(shard)) {
      return false;
    }
    shed = true;
    shedAtNanos = now;
    LOG.info(
        "handing over shard {} for balance: holding {}, cap {} ({} replicas, {} shards, slack {})",
        shard,
        held.size(),
        cap,
        roster.members().size(),
        shards.size(),
        slack);
    return true;
  }

  private final class Seat implements Reservation {
    private final String shard;
    private boolean done;

    Seat(String shard) {
      this.shard = shard;
    }

    @Override
    public void won() {
      synchronized (ShardQuota.this) {
        if (!done && reserved.remove(shard)) {
          held.add(shard);
        }
      }
    }

    @Override
    public void cancel() {
      synchronized (ShardQuota.this) {
        if (!done) {
          done = true;
          reserved.remove(shard);
          held.remove(shard);
        }
      }
    }

    @Override
    public boolean shouldShed() {
      tick();
      return shed(shard);
    }

    @Override
    public void handedOver(HandOver reason) {
      cancel();
      (reason == HandOver.BALANCE ? balanceHandovers : stopHandovers).increment();
    }
  }
}
