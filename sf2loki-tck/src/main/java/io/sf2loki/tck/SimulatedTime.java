package io.sf2loki.tck;

import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;

/**
 * Discrete-event time for coordinator tests: one timeline behind a wall {@link #clock()} and a
 * monotonic {@link #ticker()}, advanced only when <em>every</em> participant thread is asleep in
 * {@link #sleep}, straight to the earliest wake-up. Work between sleeps (file and HTTP I/O) thus
 * takes no simulated time, a 30 s ttl passes in microseconds, and interleavings follow the
 * simulated schedule instead of the CPU scheduler.
 *
 * <p>Participants: the test thread after {@link #join()} and threads created with {@link #start}. A
 * participant blocked anywhere but {@link #sleep} (a latch, {@code Thread.join}) freezes time; a
 * pause is therefore modelled as a simulated sleep. Thread-safe.
 */
public final class SimulatedTime {

  /** A stop signal that never fires, for plain sleeps. */
  public static final StopSignal NEVER =
      new StopSignal() {
        @Override
        public boolean isStopRequested() {
          return false;
        }

        @Override
        public boolean awaitStop(Duration timeout) {
          return false;
        }
      };

  private final Object lock = new Object();
  private final Instant origin;
  private final ThreadFactory threads;
  private final Set<Thread> participants = new HashSet<>();
  private final List<Waiter> asleep = new ArrayList<>();
  private long now;

  /**
   * A timeline whose wall clock starts at {@code origin}, with no participant yet.
   *
   * @param threads makes the participant threads of {@link #start} (daemon threads, so a leaked one
   *     never keeps the test JVM alive: a {@link io.sf2loki.spi.NamedThreadFactory}, say)
   */
  public SimulatedTime(Instant origin, ThreadFactory threads) {
    this.origin = Objects.requireNonNull(origin, "origin");
    this.threads = Objects.requireNonNull(threads, "threads");
  }

  /** The wall clock (UTC) on this timeline. */
  public Clock clock() {
    return new SimClock(ZoneOffset.UTC);
  }

  /** The monotonic clock on this timeline. */
  public Ticker ticker() {
    return this::nanos;
  }

  /** Nanoseconds since the origin. */
  public long nanos() {
    synchronized (lock) {
      return now;
    }
  }

  /** The current wall-clock instant. */
  public Instant instant() {
    return origin.plusNanos(nanos());
  }

  /** Makes the calling thread a participant: time only advances while it sleeps here. */
  public void join() {
    synchronized (lock) {
      participants.add(Thread.currentThread());
    }
  }

  /** The calling thread stops participating (it may block elsewhere without freezing time). */
  public void leave() {
    synchronized (lock) {
      participants.remove(Thread.currentThread());
      advanceIfAllAsleep();
    }
  }

  /** A body run on a participant thread. */
  @FunctionalInterface
  public interface Body {
    void run() throws Exception;
  }

  /**
   * Starts a participant thread (counted before this method returns, so time cannot run ahead of
   * it). Exceptions from {@code body} are kept and rethrown by {@link Participant#join}.
   */
  public Participant start(String name, Body body) {
    Participant p = new Participant(name, body);
    synchronized (lock) {
      participants.add(p.thread);
    }
    p.thread.start();
    return p;
  }

  /**
   * Sleeps {@code duration} of simulated time, waking early when {@code stop} fires. Like {@link
   * Thread#sleep}, it throws at once when the thread is interrupted, even if time could advance
   * straight to the deadline.
   *
   * @return whether a stop was requested
   */
  public boolean sleep(Duration duration, StopSignal stop) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException(Thread.currentThread().getName() + " interrupted");
    }
    synchronized (lock) {
      if (!participants.contains(Thread.currentThread())) {
        throw new IllegalStateException(Thread.currentThread().getName() + " is not a participant");
      }
      Waiter w = new Waiter(now + Math.max(1, duration.toNanos()));
      asleep.add(w);
      try {
        advanceIfAllAsleep();
        while (!w.woken && !stop.isStopRequested()) {
          lock.wait(2);
        }
      } finally {
        if (!w.woken) {
          asleep.remove(w);
        }
      }
      return stop.isStopRequested();
    }
  }

  /** Sleeps {@code duration} of simulated time. */
  public void sleep(Duration duration) throws InterruptedException {
    sleep(duration, NEVER);
  }

  /**
   * A new stop signal whose {@link StopSignal#awaitStop waits} are sleeps on this timeline, so a
   * participant that waits for its stop (the {@code noop} coordinator does) lets time pass.
   */
  public Stop newStop() {
    return new Stop();
  }

  /**
   * A stop signal on this timeline: {@link #awaitStop} is a {@link #sleep(Duration, StopSignal)}.
   */
  public final class Stop implements StopSignal {
    private volatile boolean requested;

    private Stop() {}

    /** Requests the stop; idempotent. Sleepers waiting for it wake within milliseconds. */
    public void requestStop() {
      requested = true;
    }

    @Override
    public boolean isStopRequested() {
      return requested;
    }

    /** Sleeps on the timeline until the stop or {@code timeout}; the caller must participate. */
    @Override
    public boolean awaitStop(Duration timeout) throws InterruptedException {
      return sleep(timeout, this);
    }
  }

  /**
   * Lets simulated time pass in {@code step}s until {@code condition} holds or {@code max} passed.
   *
   * @return whether the condition held
   */
  public boolean awaitCondition(BooleanSupplier condition, Duration max, Duration step)
      throws InterruptedException {
    long end = nanos() + max.toNanos();
    while (!condition.getAsBoolean()) {
      if (nanos() - end >= 0) {
        return false;
      }
      sleep(step);
    }
    return true;
  }

  private void advanceIfAllAsleep() {
    if (participants.isEmpty() || asleep.size() < participants.size()) {
      return;
    }
    long next = asleep.stream().mapToLong(w -> w.deadline).min().orElse(now);
    now = Math.max(now, next);
    asleep.removeIf(
        w -> {
          if (w.deadline - now <= 0) {
            w.woken = true;
          }
          return w.woken;
        });
    lock.notifyAll();
  }

  private static final class Waiter {
    final long deadline;
    boolean woken;

    Waiter(long deadline) {
      this.deadline = deadline;
    }
  }

  /** A participant thread started by {@link #start}. */
  public final class Participant {
    private final Thread thread;
    private volatile Exception failure;

    private Participant(String name, Body body) {
      this.thread =
          threads.newThread(
              () -> {
                try {
                  body.run();
                } catch (Exception e) {
                  failure = e;
                } finally {
                  leave();
                }
              });
      this.thread.setName(name);
    }

    /** The thread. */
    public Thread thread() {
      return thread;
    }

    /**
     * Waits (in real time) for the thread to end; the caller should leave or stop it first if it
     * needs simulated time to finish. {@code realTimeout} is a wall-clock bound: pass it scaled by
     * {@link io.sf2loki.testkit.TestTiming}.
     *
     * @throws AssertionError when it did not end in time
     * @throws Exception what the body threw
     */
    public void join(Duration realTimeout) throws Exception {
      thread.join(realTimeout.toMillis());
      if (thread.isAlive()) {
        throw new AssertionError(thread.getName() + " did not finish within " + realTimeout);
      }
      if (failure != null) {
        throw failure;
      }
    }
  }

  private final class SimClock extends Clock {
    private final ZoneId zone;

    SimClock(ZoneId zone) {
      this.zone = zone;
    }

    @Override
    public ZoneId getZone() {
      return zone;
    }

    @Override
    public Clock withZone(ZoneId z) {
      return new SimClock(z);
    }

    @Override
    public Instant instant() {
      return SimulatedTime.this.instant();
    }
  }
}
