package io.sf2loki.coordinate.filelease;

import io.sf2loki.config.Durations;
import io.sf2loki.coordinate.internal.AbstractLeaseCoordinator;
import io.sf2loki.coordinate.internal.DuplicateHolderException;
import io.sf2loki.coordinate.internal.EpochRule;
import io.sf2loki.coordinate.internal.LeaseTerm;
import io.sf2loki.coordinate.internal.RenewalSchedule;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.files.StrayFiles;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.CoordinatorException;
import io.sf2loki.spi.IoFailures;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.Ticker;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election through a lease file on shared storage (operations §2.3). The last rename wins,
 * so a claim is verified by re-reading after a pause; renewals act only on what was confirmed: a
 * read error is "unknown", never "absent" and never "still mine".
 *
 * <p>Campaigning never retries a failed read or write itself: it throws a {@link
 * CoordinatorException} (EACCES, EROFS, ENOTDIR, ENOSPC permanent, other I/O errors transient) and
 * the engine backs off. While a term is held, failures are retried (see {@link RenewalSchedule})
 * while a retry can still start before the last chance.
 *
 * <p>Wall-clock expiry is compared across hosts (NTP required; ttl must exceed the worst skew);
 * local durations use the injected {@link Ticker}. Run on one thread; see {@link
 * AbstractLeaseCoordinator} for the lifecycle.
 *
 * <p>Deadlines: the storage is expected to bound each call by {@code io_timeout} (the provider
 * wraps the lease file in a {@link DeadlineLeaseStorage}). A leader never starts a renewal step
 * that could end later than one {@code io_timeout} before its lease expires, so a hung mount makes
 * it step down before a standby can take the lease from under it (see {@link #lastChanceNanos}).
 */
public final class FileLeaseCoordinator extends AbstractLeaseCoordinator {

  private static final Logger LOG = LoggerFactory.getLogger(FileLeaseCoordinator.class);

  private final FileLeaseStorage storage;
  private final String holder;
  private final Duration ttl;
  private final Duration renewInterval;
  private final Duration verifyPause;
  private final Duration ioTimeout;
  private final Clock clock;
  private final Ticker ticker;
  private final EpochRule epochs;
  private final String instance = UUID.randomUUID().toString();
  private final StrayFiles strays;
  private boolean straysCleaned;
  private Optional<FileLeaseDocument> twinSeen = Optional.empty();
  private long lastGoodNanos;

  /**
   * @param storage the lease document
   * @param holder this contender's unique identity
   * @param config timings
   * @param environment clock, ticker and the store's epoch floor
   * @param sleeper how to wait between operations
   */
  public FileLeaseCoordinator(
      FileLeaseStorage storage,
      String holder,
      FileLeaseConfig config,
      CoordinatorEnvironment environment,
      Sleeper sleeper) {
    super(config.renewInterval(), sleeper, environment);
    this.storage = Objects.requireNonNull(storage, "storage");
    this.holder = Objects.requireNonNull(holder, "holder");
    this.ttl = config.ttl();
    this.renewInterval = config.renewInterval();
    this.verifyPause = config.verifyPause();
    this.ioTimeout = config.ioTimeout();
    this.clock = environment.clock();
    this.ticker = environment.ticker();
    this.epochs = new EpochRule(environment.epochFloor(), storage.location());
    this.strays = new StrayFiles(environment.metrics(), "lease");
  }

  @Override
  public String location() {
    return storage.location();
  }

  @Override
  public String holder() {
    return holder;
  }

  @Override
  protected Optional<LeaseTerm> campaign(StopSignal stop) throws InterruptedException {
    removeStraysOnce();
    while (!stop.isStopRequested()) {
      LeaseRead read = storage.read();
      if (read instanceof LeaseRead.Unknown u) {
        // never contested: the engine backs off (or, for EACCES/ENOTDIR, gives up) and comes back
        throw new CoordinatorException(
            "cannot read file lease " + location() + ": " + u.detail(),
            null,
            u.failure().orResource(location()));
      } else if (read instanceof LeaseRead.Present p
          && !p.document().isExpiredAt(clock.instant())) {
        LOG.debug("file lease {} is held by {}", location(), p.document().holder());
        refuseLiveTwin(p.document());
      } else if (mayAttempt()) {
        Optional<LeaseTerm> won = claim(read, stop);
        if (won.isEmpty()) {
          attemptLost();
        }
        if (won.isPresent() || stop.isStopRequested()) {
          return won;
        }
        if (pause(verifyPause, stop)) {
          return Optional.empty();
        }
        continue;
      } else {
        LOG.debug("file lease {} is free but this replica is at its shard quota", location());
      }
      if (pause(untilNextPoll(renewInterval), stop)) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * Writes a claim over a claimable lease, waits the verify pause and re-reads it.
   *
   * <p>The claim is sound only when it lands within one verify pause of the read it was decided on:
   * a rival that wrote after that read verifies after our write and sees it. A claimant that stalls
   * longer (a GC pause, a hung mount) may overwrite a lease a rival has already won and verified,
   * with the same epoch when both computed it from the same floor; such a claim is abandoned. It is
   * not released but held off (see {@link #holdOff}): it keeps standbys off until the overwritten
   * leader has seen it and stepped down. The floor is read before the deciding read so that a slow
   * store does not count.
   */
  private Optional<LeaseTerm> claim(LeaseRead seen, StopSignal stop) throws InterruptedException {
    long epoch = epochs.next(seen.epoch());
    long start = ticker.nanoTime();
    LeaseRead decided = storage.read();
    if (!claimable(decided) || decided.epoch() > seen.epoch()) {
      LOG.info("file lease {} changed while the epoch was computed; backing off", location());
      return Optional.empty();
    }
    try {
      storage.write(mine(clock.instant().plus(ttl), epoch));
    } catch (IOException e) {
      throw new CoordinatorException(
          "cannot write file lease " + location() + ": " + e,
          e,
          IoFailures.classify(e, "lease", location(), FileLeaseReader.PATH_KEY));
    }
    long took = ticker.nanoTime() - start;
    if (took >= verifyPause.toNanos()) {
      LOG.warn(
          "claim of file lease {} took {} ms, longer than the verify pause; abandoning it",
          location(),
          Duration.ofNanos(took).toMillis());
      holdOff(epoch);
      return Optional.empty();
    }
    boolean stopping = pause(verifyPause, stop);
    LeaseRead check = storage.read();
    boolean won =
        check instanceof LeaseRead.Present p
            && p.document().writtenBy(holder, instance)
            && p.document().epoch() == epoch
            && !p.document().isExpiredAt(clock.instant());
    if (!won) {
      LOG.info("lost file-lease race for {}; backing off", location());
      return Optional.empty();
    }
    LeaseTerm term = new LeaseTerm(holder, epoch, ticker, start + ttl.toNanos());
    if (stopping) {
      release(term);
      return Optional.empty();
    }
    lastGoodNanos = start;
    return Optional.of(term);
  }

  private boolean claimable(LeaseRead read) {
    if (read instanceof LeaseRead.Unknown) {
      return false;
    }
    return !(read instanceof LeaseRead.Present p) || p.document().isExpiredAt(clock.instant());
  }

  @Override
  protected Optional<String> renew(LeaseTerm term, StopSignal stop) throws InterruptedException {
    Optional<String> late = startedLate("the renewal");
    if (late.isPresent()) {
      return late;
    }
    LeaseRead read = storage.read();
    if (!(read instanceof LeaseRead.Present)) {
      // the confirming read must start by the last chance too, after a pause that may overshoot
      if (pastLastChance(verifyPause.plus(renewals().margin()))) {
        return failed(
            "ownership unconfirmed: " + describe(read), "cannot confirm file lease " + location());
      }
      pause(verifyPause, stop);
      late = startedLate("the confirming read");
      if (late.isPresent()) {
        return late;
      }
      read = storage.read();
    }
    if (read instanceof LeaseRead.Present p) {
      FileLeaseDocument doc = p.document();
      if (!doc.holder().equals(holder)) {
        return Optional.of("taken over by another holder (" + doc.holder() + ")");
      }
      if (!doc.writtenBy(holder, instance)) {
        return Optional.of(
            "rewritten by another process using our holder identity "
                + holder
                + " (instance "
                + doc.instance().orElse("none")
                + "): identities must be unique per process");
      }
      if (doc.epoch() > term.epoch()) {
        return Optional.of("taken over at a higher epoch (" + doc.epoch() + ")");
      }
      if (doc.isExpiredAt(clock.instant())) {
        return Optional.of("our lease expired before it was renewed (paused?)");
      }
      return write(term);
    }
    if (read instanceof LeaseRead.Absent) {
      LOG.warn("file lease {} disappeared while held; rewriting it", location());
      return write(term);
    }
    return failed(
        "ownership unconfirmed: " + describe(read), "cannot confirm file lease " + location());
  }

  /**
   * A renewal step failed: retried while a retry can start a margin before the last chance (see
   * {@link RenewalSchedule}), else the leader steps down now.
   */
  private Optional<String> failed(String detail, String what) {
    Optional<Duration> retryIn = renewals().retry(lastChanceNanos());
    if (retryIn.isEmpty()) {
      return Optional.of(outOfTime(detail));
    }
    LOG.warn(
        "{} ({}); retrying in {} ms, {} ms before the last chance to renew",
        what,
        detail,
        retryIn.get().toMillis(),
        Duration.ofNanos(lastChanceNanos() - ticker.nanoTime()).toMillis());
    return Optional.empty();
  }

  /** The step about to start is past the last chance: the wake-up came later than planned. */
  private Optional<String> startedLate(String step) {
    return renewals()
        .lateFor(lastChanceNanos())
        .map(late -> outOfTime(RenewalSchedule.startedLate(step, late, "its last chance")));
  }

  private static String describe(LeaseRead read) {
    return read instanceof LeaseRead.Unknown u
        ? u.detail()
        : read instanceof LeaseRead.Corrupt c ? c.detail() : "absent";
  }

  /**
   * The latest a renewal step (one read or write, up to {@code io_timeout}) may start: it then ends
   * one {@code io_timeout} before the lease written at the last good renewal expires. Past it the
   * leader steps down, so it stops leading before the lease can expire under it (a standby claims
   * from the expiry on), however the storage hangs.
   */
  private long lastChanceNanos() {
    return lastGoodNanos + ttl.toNanos() - 2 * ioTimeout.toNanos();
  }

  private boolean pastLastChance(Duration before) {
    return ticker.nanoTime() + before.toNanos() - lastChanceNanos() > 0;
  }

  private String outOfTime(String detail) {
    return "renewal could not complete "
        + Durations.format(ioTimeout)
        + " (io_timeout) before the lease expires; stepping down before a standby may take it ("
        + detail
        + ")";
  }

  private Optional<String> write(LeaseTerm term) {
    if (term.hasLapsed()) {
      return Optional.of("lease lapsed before it could be renewed (paused past the ttl?)");
    }
    Optional<Duration> late = renewals().lateFor(lastChanceNanos());
    if (late.isPresent()) {
      // the renewal started in time, so the read before this write took that long
      return Optional.of(
          outOfTime(
              "the lease was read too late to be rewritten: the read ended "
                  + late.get().toMillis()
                  + " ms after the last chance"));
    }
    long start = ticker.nanoTime();
    try {
      storage.write(mine(clock.instant().plus(ttl), term.epoch()));
    } catch (IOException e) {
      return failed("renewal failing: " + e.getMessage(), "cannot renew file lease " + location());
    }
    // Never revive a lapsed term: a standby may have claimed the lease during our write.
    if (!term.extendUntil(start + ttl.toNanos())) {
      holdOff(term.epoch());
      return Optional.of("lease lapsed while it was being renewed (paused past the ttl?)");
    }
    lastGoodNanos = start;
    renewals().renewed(lastChanceNanos());
    return Optional.empty();
  }

  /**
   * Our write landed after a rival could have claimed the lease, so it may have replaced the
   * rival's live lease with an expiry computed before the stall, possibly already past: a standby
   * (or we ourselves) would then claim while the rival still leads. Rewrites it with a whole ttl
   * from now, so that no one claims before every leader that was current when it landed has seen a
   * foreign holder at its next renewal and stepped down, or lapsed (a term lapses one ttl after the
   * start of its last renewal, which precedes this write). Costs at most one ttl of failover.
   */
  private void holdOff(long epoch) {
    try {
      storage.write(mine(clock.instant().plus(ttl), epoch));
    } catch (IOException e) {
      LOG.warn("cannot rewrite late file lease {}: {}", location(), e.toString());
    }
  }

  private FileLeaseDocument mine(java.time.Instant expiresAt, long epoch) {
    return new FileLeaseDocument(holder, expiresAt, epoch, Optional.of(instance));
  }

  /**
   * A live lease with our identity but not our instance token is either our crashed predecessor's
   * (it never changes and expires) or a twin's, another live process configured with our identity.
   * A twin renews it: seeing the same foreign token with a later expiry proves one, and running
   * beside it would give two leaders who each take the lease for their own.
   *
   * @throws DuplicateHolderException when a twin renewed the lease
   */
  private void refuseLiveTwin(FileLeaseDocument lease) {
    if (!lease.holder().equals(holder) || lease.writtenBy(holder, instance)) {
      twinSeen = Optional.empty();
      return;
    }
    Optional<FileLeaseDocument> before = twinSeen;
    twinSeen = Optional.of(lease);
    if (before.isPresent()
        && before.get().instance().equals(lease.instance())
        && lease.expiresAt().isAfter(before.get().expiresAt())) {
      throw new DuplicateHolderException(
          location(),
          holder,
          "coordinate.file_lease.holder_id",
          lease.instance().orElse("(none written)"),
          instance);
    }
  }

  /**
   * Temp files of writers that crashed mid-write. Only those older than a ttl are taken: a live
   * replica's write lasts milliseconds, and one stalled for a whole ttl has lost its term anyway.
   */
  private void removeStraysOnce() {
    if (!straysCleaned) {
      straysCleaned = true;
      storage.removeStrays(clock.instant().minus(ttl), strays);
    }
  }

  /**
   * Releases only a lease that still carries our instance token: another process configured with
   * our identity may hold it now, and expiring its live lease would let a standby in beside it.
   */
  @Override
  protected void release(LeaseTerm term) {
    LeaseRead read = storage.read();
    if (read instanceof LeaseRead.Present p
        && p.document().writtenBy(holder, instance)
        && p.document().epoch() == term.epoch()) {
      try {
        storage.write(mine(clock.instant(), term.epoch()));
      } catch (IOException e) {
        LOG.warn(
            "cannot release file lease {}; it expires by itself: {}", location(), e.toString());
      }
    }
  }
}
