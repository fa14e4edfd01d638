package io.sf2loki.coordinate.balance;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one thread a replica's roster reads and writes run on, one at a time, shared by the
 * coordinators of all its shards. A coordinator starts an operation (none starts while one runs)
 * and may wait for the one running at most a bound of its choosing; an operation still running then
 * goes on alone. No coordinator thread ever blocks on the roster's I/O past its bound: a leader
 * starts the heartbeat right before the wait that times its next renewal, and a roster that takes
 * several renew intervals to answer (a hung mount up to {@code io_timeout}, an API server up to its
 * read timeout, conflicts backing off) would otherwise delay that renewal as long.
 */
final class RosterThread {

  private static final long IDLE_SECONDS = 5;

  private final Executor executor;
  private final Runnable shutdown;
  private CompletableFuture<Void> running = CompletableFuture.completedFuture(null);
  private boolean closed;

  /**
   * @param executor runs the operations in the order given, one at a time (a single thread)
   * @param shutdown stops the executor once the last operation ran
   */
  RosterThread(Executor executor, Runnable shutdown) {
    this.executor = Objects.requireNonNull(executor, "executor");
    this.shutdown = Objects.requireNonNull(shutdown, "shutdown");
  }

  /** A thread made by {@code threads}, renamed {@code sf2loki-shard-roster}; it ends when idle. */
  static RosterThread of(ThreadFactory threads) {
    Objects.requireNonNull(threads, "threads");
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            1,
            1,
            IDLE_SECONDS,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            body -> {
              Thread t = threads.newThread(body);
              t.setName("sf2loki-shard-roster");
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return new RosterThread(pool, pool::shutdown);
  }

  /**
   * Starts {@code operation} unless one is running (or this was closed); does not wait for it. The
   * operation must not throw.
   */
  synchronized void start(Runnable operation) {
    if (closed || !running.isDone()) {
      return;
    }
    try {
      running = CompletableFuture.runAsync(operation, executor);
    } catch (RejectedExecutionException e) {
      // shut down: nothing runs any more
    }
  }

  /**
   * Waits at most {@code wait} for the operation running, if any.
   *
   * @return whether none is running any more
   */
  boolean await(Duration wait) {
    CompletableFuture<Void> current;
    synchronized (this) {
      current = running;
    }
    if (current.isDone() || wait.isZero() || wait.isNegative()) {
      return current.isDone();
    }
    try {
      current.get(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (TimeoutException | ExecutionException e) {
      // still running: the caller goes on with the last known view
    }
    return current.isDone();
  }

  /**
   * Runs {@code operation} after the one running, if any, waiting for it without a bound (each
   * roster call has its own deadline), then stops the thread; later operations are not started.
   */
  void runLast(Runnable operation) {
    CompletableFuture<Void> last;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      // after the operation running has ended, never beside it, whatever its outcome
      last = running.handle((ok, e) -> null).thenRunAsync(operation, executor);
    }
    try {
      last.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // the operation does not throw
    } finally {
      shutdown.run();
    }
  }
}
