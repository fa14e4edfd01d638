package io.sf2loki.state.internal;

import io.sf2loki.config.Durations;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.StoreLockedException;
import io.sf2loki.spi.Term;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The single-instance guard of an object store under {@code noop}, where no lock can exist: the
 * daemon takes the object at its start by writing its {@link WriterStamp}, stamps every write of
 * its terms and keeps the stamp fresh with a heartbeat ({@link WriterLiveness}); a newcomer that
 * finds another daemon's stamp does not write at all until it has judged that daemon gone.
 *
 * <p>So the second instance is the one refused, at its start, and the first runs on: a conflict
 * cannot decide it, since the newcomer's first write, based on the first daemon's document, would
 * simply succeed. An operator's {@code sf2loki-cli state} repair keeps the stamp as it is (its
 * writes are unfenced and unstamped), so it is merged as before and never taken for a renewal or a
 * second daemon.
 *
 * <p>Not thread-safe: the store calls it under its own lock.
 */
final class SingleWriter {

  private static final String ONE_INSTANCE =
      " Under coordinate.type = noop exactly one instance may use a state object: run one instance"
          + " per state object, or use a lease coordinator (file_lease, k8s_lease) for an"
          + " active-passive pair";
  private static final String FIX =
      "stop the other sf2loki instance, or give each instance its own state object";

  private final String token = UUID.randomUUID().toString();
  private final Clock clock;
  private final WriterLiveness liveness;
  private String holder = "";
  private Watch watched;
  private String running; // another writer known to be alive: seen renewing, or taking over
  private boolean tookOver; // ... from this process
  private boolean holds;
  private Runnable stopBeating = () -> {};
  private long lastStamp; // on the liveness ticker

  /** Another writer's stamp as this process first saw it, on its monotonic ticker. */
  private record Watch(String raw, long since) {}

  SingleWriter(Clock clock, WriterLiveness liveness) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.liveness = Objects.requireNonNull(liveness, "liveness");
  }

  /** This process's token. */
  String token() {
    return token;
  }

  /** How often the heartbeat refreshes the stamp. */
  Duration heartbeat() {
    return liveness.heartbeat();
  }

  /** Whether this process holds the object: it took it and nobody took it over since. */
  boolean holds() {
    return holds;
  }

  /**
   * This process has taken the object (again): its stamp is stored.
   *
   * @param beat the heartbeat, started when this process did not hold the object yet
   * @return true when it did not
   */
  boolean took(Runnable beat) {
    stamped();
    if (holds) {
      return false;
    }
    holds = true;
    stopBeating = liveness.pacemaker().start(liveness.heartbeat(), beat);
    return true;
  }

  /** A write of this process's stamp landed. */
  void stamped() {
    lastStamp = liveness.ticker().nanoTime();
  }

  /** Whether a heartbeat should write: the object is held and no write stamped it lately. */
  boolean beatDue() {
    return holds && liveness.ticker().nanoTime() - lastStamp >= liveness.heartbeat().toNanos() / 2;
  }

  /** The object is no longer this process's (released, or taken over): the heartbeat stops. */
  void lose() {
    holds = false;
    stopBeating.run();
    stopBeating = () -> {};
  }

  /** Whether {@code mutation} is the daemon's own (a leadership term's), which is stamped. */
  boolean stamps(Mutation mutation) {
    return mutation.fence() instanceof Term;
  }

  /** {@code doc} with this process's stamp at the current time. */
  Map<String, String> stamp(Map<String, String> doc) {
    Map<String, String> stamped = new LinkedHashMap<>(doc);
    stamped.put(WriterStamp.KEY, WriterStamp.of(token, clock.instant(), holder).raw());
    return stamped;
  }

  /** Whether {@code doc} carries this process's stamp. */
  boolean owns(Map<String, String> doc) {
    return WriterStamp.in(doc).filter(s -> s.token().equals(token)).isPresent();
  }

  /**
   * Decides, at the daemon's start, whether it may take over the object holding {@code doc}: when
   * it carries no stamp or ours; when its writer is gone — its stamp unchanged for the window as
   * this process watched it, or its heartbeat older than {@link WriterLiveness#expired()}. A stamp
   * that changes while watched is a live daemon.
   *
   * @param holder this daemon's host or pod name, for its stamp
   * @return when this process takes a gone writer's object over, a line saying so for the log;
   *     empty when the object was free or ours
   * @throws StoreLockedException permanent ({@code store_locked}) when another daemon has renewed
   *     its stamp while this process watched it; transient ({@code store_awaiting_stale_writer})
   *     while a stamp is being watched
   */
  Optional<String> admit(Map<String, String> doc, String holder, String location) {
    this.holder = Objects.requireNonNull(holder, "holder");
    Optional<WriterStamp> found = WriterStamp.in(doc);
    if (found.isEmpty() || found.get().token().equals(token)) {
      watched = null;
      return Optional.empty();
    }
    WriterStamp theirs = found.get();
    long now = liveness.ticker().nanoTime();
    Instant wall = clock.instant();
    boolean renewed = watched != null && !watched.raw().equals(theirs.raw());
    if (watched == null || renewed) {
      watched = new Watch(theirs.raw(), now);
    }
    if (renewed) {
      running = theirs.token();
      tookOver = false;
      throw running(theirs, wall, location);
    }
    boolean unchanged = now - watched.since() >= liveness.window().toNanos();
    boolean expired =
        theirs.age(wall).filter(age -> age.compareTo(liveness.expired()) >= 0).isPresent();
    if (unchanged || expired) {
      watched = null;
      running = null;
      return Optional.of(
          location
              + ": took the object over from "
              + theirs.describe(wall)
              + (unchanged
                  ? ": its stamp stayed unchanged for " + Durations.format(liveness.window())
                  : ": its heartbeat is older than " + Durations.format(liveness.expired()))
              + ", so its daemon is gone (a crash)");
    }
    if (theirs.token().equals(running)) {
      throw tookOver ? tookOver(theirs, location) : running(theirs, wall, location);
    }
    throw waiting(theirs, wall, Duration.ofNanos(now - watched.since()), location);
  }

  /**
   * Checks that the document a daemon's write is based on is still ours (or carries no stamp, as
   * after an operator deleted it).
   *
   * @throws StoreLockedException permanent, when another process has taken the object over; this
   *     one then no longer holds it
   */
  void requireOwner(Map<String, String> doc, String location) {
    Optional<WriterStamp> found = WriterStamp.in(doc);
    if (found.isPresent() && !found.get().token().equals(token)) {
      lose();
      // It has just written: alive. Until it goes stale, this process's next start is refused.
      running = found.get().token();
      tookOver = true;
      watched = null;
      throw tookOver(found.get(), location);
    }
  }

  private StoreLockedException tookOver(WriterStamp theirs, String location) {
    return new StoreLockedException(
        "another sf2loki instance took "
            + location
            + " over: "
            + theirs.describe(clock.instant())
            + " replaced the writer stamp of this process (writer "
            + token
            + ") after finding it unchanged for "
            + Durations.format(liveness.window())
            + ": this process's heartbeat did not reach the object in time (a long pause, the"
            + " object store unreachable), or the hosts' clocks differ by minutes; this process"
            + " writes no more."
            + ONE_INSTANCE,
        null,
        FailureClass.permanent("store_locked", location, FIX));
  }

  private StoreLockedException running(WriterStamp theirs, Instant now, String location) {
    return new StoreLockedException(
        "another sf2loki instance is running on "
            + location
            + ": "
            + theirs.describe(now)
            + ", renewed its writer stamp while this process (writer "
            + token
            + ") waited to start, so this process writes nothing."
            + ONE_INSTANCE,
        null,
        FailureClass.permanent("store_locked", location, FIX));
  }

  private StoreLockedException waiting(
      WriterStamp theirs, Instant now, Duration watchedFor, String location) {
    return new StoreLockedException(
        location
            + " carries the writer stamp of another sf2loki instance ("
            + theirs.describe(now)
            + "): waiting until it has stayed unchanged for "
            + Durations.format(liveness.window())
            + " (watched for "
            + Durations.format(watchedFor.truncatedTo(ChronoUnit.SECONDS))
            + " so far) before taking the object over, as after a crash; if it changes meanwhile"
            + " another instance is running and this one stops",
        null,
        FailureClass.transientFailure("store_awaiting_stale_writer", location));
  }
}
