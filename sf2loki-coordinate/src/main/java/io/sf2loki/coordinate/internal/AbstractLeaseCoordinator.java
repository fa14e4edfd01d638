package io.sf2loki.coordinate.internal;

import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.ShardBalance;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The election lifecycle both lease coordinators share; a backend supplies only {@link #campaign},
 * {@link #renew} and {@link #release}.
 *
 * <p>Lifecycle: {@code run} may be called once. Listener calls strictly alternate and happen on the
 * calling thread, never under a lock. A term is revoked ({@code isCurrent() == false}) before its
 * {@code onLose} when leadership is lost; on a graceful stop {@code onLose} runs while the term is
 * still current (the final drain commits while holding the lease, invariant 3) and the lease is
 * released only after it returned.
 *
 * <p>After each confirmed renewal the leader checks the store's fence epoch ({@link FenceCheck}).
 * When it is above the term's (a {@code --fence-leader} repair, or another leader), the term ends
 * as a lost one does (revoked, then {@code onLose}), the lease is released and the coordinator
 * campaigns again: the next acquire takes an epoch above the store's, and its term starts from what
 * is stored.
 *
 * <p>Shards: each acquire attempt takes a reservation of the process's {@link ShardBalance} first
 * (a backend calls {@link #mayAttempt} before it claims, {@link #attemptLost} when the claim did
 * not win). After a confirmed renewal, when the balance says this replica holds more shards than
 * its quota and this is the one to give up, the term ends as on a stop (the final drain commits
 * while the lease is held, then the lease is released) and the coordinator campaigns again.
 */
public abstract class AbstractLeaseCoordinator implements Coordinator {

  private static final Logger LOG = LoggerFactory.getLogger(AbstractLeaseCoordinator.class);

  private enum State {
    NEW,
    RUNNING,
    FINISHED,
    CLOSED
  }

  /** The longest a renewal waits for the fence check it starts (a read normally takes ms). */
  private static final Duration MAX_FENCE_WAIT = Duration.ofSeconds(1);

  /** How a held term ended. */
  private sealed interface Ending {}

  /** A stop was requested: the lease is handed back after the final drain. */
  private record Stopped() implements Ending {}

  /** The replica holds more shards than its quota: handed over like a stop, then campaigns. */
  private record Shed() implements Ending {}

  /** The renewal found the lease lost, for {@code reason}. */
  private record Lost(String reason) implements Ending {}

  /** The store records {@code storeEpoch}, above the term's: its commits would all be refused. */
  private record Fenced(long storeEpoch) implements Ending {}

  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private final Sleeper sleeper;
  private final Ticker ticker;
  private final RenewalSchedule renewals;
  private final FenceCheck fence;
  private final ShardBalance balance;
  private final String shard;
  private Optional<ShardBalance.Reservation> seat = Optional.empty();
  private boolean refused;

  /**
   * @param renewInterval how often the leader renews
   * @param sleeper how to wait between operations
   * @param environment the store's epoch floor, threads and metrics of the fence check
   */
  protected AbstractLeaseCoordinator(
      Duration renewInterval, Sleeper sleeper, CoordinatorEnvironment environment) {
    Objects.requireNonNull(renewInterval, "renewInterval");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.ticker = environment.ticker();
    this.renewals = new RenewalSchedule(renewInterval, ticker, environment.metrics());
    this.balance = environment.balance();
    this.shard = environment.shard();
    Duration quarter = renewInterval.dividedBy(4);
    this.fence =
        new FenceCheck(
            environment.epochFloor(),
            quarter.compareTo(MAX_FENCE_WAIT) < 0 ? quarter : MAX_FENCE_WAIT,
            environment.threads(),
            environment.metrics());
  }

  /** The lease's path or {@code namespace/name}. */
  public abstract String location();

  /** This contender's identity. */
  public abstract String holder();

  /**
   * Campaigns until the lease is won or {@code stop} fires.
   *
   * @return the won term, or empty when stopped
   */
  protected abstract Optional<LeaseTerm> campaign(StopSignal stop) throws InterruptedException;

  /**
   * One renewal. On success the backend extends the term ({@link LeaseTerm#extendUntil}).
   *
   * @return why leadership was lost, or empty to keep it
   */
  protected abstract Optional<String> renew(LeaseTerm term, StopSignal stop)
      throws InterruptedException;

  /** Gives the lease up so a standby takes over at once; best effort, never throws. */
  protected abstract void release(LeaseTerm term);

  /**
   * When the next renewal is due. A backend reports each confirmed renewal ({@link
   * RenewalSchedule#renewed}) and each failed one ({@link RenewalSchedule#retry}, which says
   * whether a retry still fits before the lease must be given up).
   */
  protected final RenewalSchedule renewals() {
    return renewals;
  }

  /** Waits {@code d}; true when stop was requested. Keeps the shard roster entry fresh first. */
  protected final boolean pause(Duration d, StopSignal stop) throws InterruptedException {
    balance.tick();
    return sleeper.sleep(d, stop);
  }

  /**
   * Waits until the {@link Ticker} reads {@code atNanos}, the roster heartbeat included: a renewal
   * planned for a moment starts then, not a heartbeat later.
   */
  private boolean pauseUntil(long atNanos, StopSignal stop) throws InterruptedException {
    balance.tick();
    return sleeper.sleep(Duration.ofNanos(Math.max(0, atNanos - ticker.nanoTime())), stop);
  }

  /**
   * Before an acquire attempt: reserves a place in the shard quota, unless one is reserved already.
   *
   * @return false when the quota says not now (do not attempt; poll again later)
   */
  protected final boolean mayAttempt() {
    if (seat.isEmpty()) {
      seat = balance.reserve(shard);
    }
    refused = seat.isEmpty();
    return seat.isPresent();
  }

  /**
   * The wait before the next poll: {@code planned}, or less when the quota just refused this shard
   * and may have room sooner (a dead replica's roster entry expiring).
   */
  protected final Duration untilNextPoll(Duration planned) {
    boolean wasRefused = refused;
    refused = false;
    if (!wasRefused) {
      return planned;
    }
    return balance.roomMayOpenIn().filter(d -> d.compareTo(planned) < 0).orElse(planned);
  }

  /** The attempt {@link #mayAttempt} allowed did not win: its reservation is returned. */
  protected final void attemptLost() {
    seat.ifPresent(ShardBalance.Reservation::cancel);
    seat = Optional.empty();
  }

  @Override
  public final void run(LeadershipListener listener, StopSignal stop) throws InterruptedException {
    Objects.requireNonNull(listener, "listener");
    Objects.requireNonNull(stop, "stop");
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      throw new IllegalStateException(
          "coordinator for " + location() + " is " + state.get() + "; run may be called once");
    }
    try {
      while (!stop.isStopRequested()) {
        Optional<LeaseTerm> won = campaign(stop);
        if (won.isEmpty() || lead(won.get(), listener, stop)) {
          return;
        }
      }
    } finally {
      attemptLost();
      state.compareAndSet(State.RUNNING, State.FINISHED);
    }
  }

  /**
   * Leads one term; returns true when stopped, false when it was lost or handed over for balance.
   */
  private boolean lead(LeaseTerm term, LeadershipListener listener, StopSignal stop)
      throws InterruptedException {
    LOG.info("acquired lease {} as {} with epoch {}", location(), holder(), term.epoch());
    ShardBalance.Reservation held = seat.orElse(ShardBalance.Reservation.FREE);
    seat = Optional.empty();
    held.won();
    Ending ending;
    try {
      listener.onAcquire(term);
      ending = hold(term, held, stop);
    } catch (Throwable e) {
      // An Error too (in a renewal, in the listener): the term ends and the lease is given back
      // so a standby takes over at once, instead of this replica holding it until it expires.
      term.revoke();
      try {
        listener.onLose(term);
      } finally {
        release(term);
        held.cancel();
      }
      throw e;
    }
    if (!(ending instanceof Stopped) && !(ending instanceof Shed)) {
      held.cancel();
    }
    if (ending instanceof Lost lost) {
      term.revoke(lost.reason());
      LOG.warn(
          "lost lease {} (epoch {}): {}; standing by", location(), term.epoch(), lost.reason());
      listener.onLose(term);
      return false;
    }
    if (ending instanceof Fenced fenced) {
      String reason =
          "the store's fence epoch "
              + fenced.storeEpoch()
              + " is above this term's "
              + term.epoch()
              + " (a --fence-leader repair or another leader)";
      term.revoke(reason); // before the drain: nothing it commits could be accepted anyway
      LOG.warn("{}: ending the term of lease {}, campaigning again", reason, location());
      try {
        listener.onLose(term);
      } finally {
        release(term); // still ours: given back so that the pair elects again at once
      }
      return false;
    }
    boolean shed = ending instanceof Shed;
    try {
      listener.onLose(term);
    } finally {
      term.revoke();
      release(term);
      held.handedOver(shed ? ShardBalance.HandOver.BALANCE : ShardBalance.HandOver.STOP);
      LOG.info(
          "released lease {} (epoch {}){}",
          location(),
          term.epoch(),
          shed ? " for balance; campaigning again when under the shard quota" : "");
    }
    return !shed;
  }

  /**
   * Renews when the {@link RenewalSchedule} says (every renew interval, sooner to retry a failed
   * renewal), then checks the store's fence epoch. On stop, renews once more so that the final
   * drain has a whole lease duration.
   */
  private Ending hold(LeaseTerm term, ShardBalance.Reservation held, StopSignal stop)
      throws InterruptedException {
    renewals.started();
    while (true) {
      boolean stopping = pauseUntil(renewals.nextNanos(), stop);
      Optional<String> lost = renew(term, stop);
      if (lost.isPresent()) {
        return new Lost(lost.get());
      }
      if (stopping) {
        return new Stopped();
      }
      OptionalLong above = fence.check(term, location());
      if (above.isPresent()) {
        return new Fenced(above.getAsLong());
      }
      if (held.shouldShed()) {
        return new Shed();
      }
    }
  }

  @Override
  public void close() {
    state.set(State.CLOSED);
    fence.close();
  }
}
