package io.sf2loki.deadline;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.config.Durations;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Blocking file-system calls with a deadline. Each call runs on one of at most {@code threads}
 * dedicated threads and its caller waits for it at most its deadline, so a hung mount (an NFS or
 * EFS server that stopped answering) delays the caller by the deadline instead of blocking it for
 * ever; the caller then fails with {@link IoTimeoutException}.
 *
 * <p>A call that misses its deadline is abandoned. No Java API can cancel a system call stuck in
 * the kernel, so its thread is interrupted (an interruptible channel gives up at once) and left
 * until the file system answers; a result it still produces goes to the caller's clean-up (a lock
 * taken too late is released). A call its caller gave up on before it started never runs. The pool
 * is bounded: a call waits for a thread while the others are busy, and once every thread is stuck
 * in an abandoned call, further calls fail at once without starting, so hung calls never pile up
 * threads. Idle threads end after a few seconds.
 *
 * <p>Meters, tagged {@code file}: {@code sf2loki_file_io_timeouts{file,operation,reason}} counts
 * calls that missed their deadline ({@code reason=deadline}) or were refused because every thread
 * was stuck ({@code reason=saturated}); {@code sf2loki_file_io_stuck_threads{file}} is the number
 * of abandoned calls still running, summed over every pool of that file in the registry ({@link
 * StuckGauge}).
 *
 * <p>Thread-safe. Its threads come from the given factory (daemon threads, as {@code
 * NamedThreadFactory} makes them), renamed {@code sf2loki-<file>-io-<n>}.
 */
public final class BlockingIo implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BlockingIo.class);
  private static final long IDLE_SECONDS = 5;

  private final String file;
  private final int threads;
  private final MeterRegistry registry;
  private final ThreadPoolExecutor pool;
  private final AtomicInteger stuck = new AtomicInteger();
  private final AtomicInteger stuckInRegistry;

  /**
   * @param file what the calls are about, the {@code file} tag of the meters ({@code state}, {@code
   *     lease})
   * @param threads at most this many calls run (or hang) at once
   * @param factory makes the threads
   * @param registry where the meters go
   */
  public BlockingIo(String file, int threads, ThreadFactory factory, MeterRegistry registry) {
    this.file = Objects.requireNonNull(file, "file");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1");
    }
    this.threads = threads;
    this.registry = Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(factory, "factory");
    AtomicInteger made = new AtomicInteger();
    ThreadFactory named =
        body -> {
          Thread t = factory.newThread(body);
          t.setName("sf2loki-" + file + "-io-" + made.incrementAndGet());
          return t;
        };
    this.pool =
        new ThreadPoolExecutor(
            threads, threads, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), named);
    pool.allowCoreThreadTimeOut(true);
    this.stuckInRegistry = StuckGauge.of(registry, file);
  }

  /** {@link #call(String, Path, Duration, IoCall, Consumer)} without a clean-up. */
  public <T> T call(String operation, Path path, Duration deadline, IoCall<T> call)
      throws IOException, InterruptedException {
    return call(operation, path, deadline, call, late -> {});
  }

  /**
   * Runs {@code call} and waits for it at most {@code deadline}.
   *
   * @param operation what the call does, for the message and the meter ({@code read}, {@code
   *     write}, {@code lock})
   * @param path the file it is about, for the message
   * @param late receives what an abandoned call returns once it finishes after all (a lock taken
   *     after its caller gave up, to be released); runs on the I/O thread
   * @return what {@code call} returned
   * @throws IoTimeoutException the deadline passed, or every thread is stuck in an earlier call
   * @throws IOException what {@code call} threw
   * @throws InterruptedException the caller was interrupted while waiting; the call was abandoned
   */
  public <T> T call(
      String operation, Path path, Duration deadline, IoCall<T> call, Consumer<? super T> late)
      throws IOException, InterruptedException {
    if (stuck.get() >= threads) {
      counted(operation, "saturated");
      throw timeout(operation, path, deadline, IoTimeoutException.Reason.SATURATED);
    }
    Attempt<T> attempt = new Attempt<>(call, late);
    try {
      pool.execute(attempt); // queued behind calls still running, never behind stuck ones only
    } catch (RejectedExecutionException e) {
      throw new IOException(operation + " of " + path + " refused: its I/O pool is closed", e);
    }
    try {
      return attempt.result.get(Math.max(0, deadline.toNanos()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      if (attempt.abandon()) {
        pool.remove(attempt); // still queued: it never runs
        counted(operation, "deadline");
        LOG.warn(
            "{} of {} did not finish within {}; abandoning it ({} call(s) of the {} file stuck)",
            operation,
            path,
            Durations.format(deadline),
            stuck.get(),
            file);
        throw timeout(operation, path, deadline, IoTimeoutException.Reason.DEADLINE);
      }
      return unwrap(attempt); // it finished just now
    } catch (InterruptedException e) {
      attempt.abandon();
      pool.remove(attempt);
      throw e;
    } catch (ExecutionException e) {
      return unwrap(attempt);
    }
  }

  /**
   * Runs a clean-up that must happen even on a hung mount (releasing a lock): it is queued even
   * when every thread is stuck, is never cancelled, and still runs after {@link #close}. Its caller
   * waits for it at most {@code deadline}; one that takes longer is logged and finishes when the
   * file system answers. Never throws.
   */
  public <T> void cleanUp(String operation, Path path, Duration deadline, IoCall<T> call) {
    Attempt<T> attempt = new Attempt<>(call, late -> {});
    try {
      pool.execute(attempt);
    } catch (RejectedExecutionException e) {
      LOG.warn("{} of {} refused: the I/O pool of the {} file is closed", operation, path, file);
      return;
    }
    try {
      attempt.result.get(Math.max(0, deadline.toNanos()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      LOG.warn(
          "{} of {} did not finish within {}; it completes when the file system answers",
          operation,
          path,
          Durations.format(deadline));
    } catch (ExecutionException e) {
      LOG.warn("{} of {} failed: {}", operation, path, e.getCause().toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Abandoned calls still running. */
  public int stuck() {
    return stuck.get();
  }

  /**
   * Refuses further calls; queued clean-ups still run, and threads stuck in the kernel are left to
   * finish. Idempotent.
   */
  @Override
  public void close() {
    pool.shutdown();
  }

  private IoTimeoutException timeout(
      String operation, Path path, Duration deadline, IoTimeoutException.Reason reason) {
    return new IoTimeoutException(operation, path.toString(), deadline, reason, threads);
  }

  private void counted(String operation, String reason) {
    Counter.builder("sf2loki_file_io_timeouts")
        .description("file-system calls that missed their deadline or found every I/O thread stuck")
        .tag("file", file)
        .tag("operation", operation)
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  private static <T> T unwrap(Attempt<T> attempt) throws IOException {
    try {
      return attempt.result.join();
    } catch (java.util.concurrent.CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      } else if (cause instanceof RuntimeException runtime) {
        throw runtime;
      } else if (cause instanceof Error error) {
        throw error;
      }
      throw new IOException(cause);
    }
  }

  private enum State {
    WAITING,
    RUNNING,
    DONE,
    ABANDONED
  }

  /** One call: run at most once, and either completed for its caller or abandoned by it. */
  private final class Attempt<T> implements Runnable {
    private final IoCall<T> call;
    private final Consumer<? super T> late;
    private final CompletableFuture<T> result = new CompletableFuture<>();
    private final AtomicReference<State> state = new AtomicReference<>(State.WAITING);
    private Thread runner; // guarded by this

    Attempt(IoCall<T> call, Consumer<? super T> late) {
      this.call = call;
      this.late = late;
    }

    @Override
    public void run() {
      if (!state.compareAndSet(State.WAITING, State.RUNNING)) {
        return; // its caller gave up before it started
      }
      synchronized (this) {
        runner = Thread.currentThread();
      }
      T value = null;
      Throwable failure = null;
      try {
        value = call.run();
      } catch (IOException | RuntimeException | Error e) {
        failure = e;
      } finally {
        synchronized (this) {
          runner = null;
          Thread.interrupted(); // an interrupt meant for this call must not reach the next one
        }
      }
      if (state.compareAndSet(State.RUNNING, State.DONE)) {
        if (failure == null) {
          result.complete(value);
        } else {
          result.completeExceptionally(failure);
        }
        return;
      }
      stuck.decrementAndGet();
      stuckInRegistry.decrementAndGet();
      LOG.info("an abandoned call on the {} file finished after all", file);
      if (value != null) {
        handBack(value);
      }
    }

    private void handBack(T value) {
      try {
        late.accept(value);
      } catch (RuntimeException e) {
        LOG.warn("cleaning up after an abandoned call on the {} file failed", file, e);
      }
    }

    /**
     * Gives the call up, unless it already finished.
     *
     * @return false when it had finished (its result is there)
     */
    boolean abandon() {
      State before = state.getAndUpdate(s -> s == State.DONE ? State.DONE : State.ABANDONED);
      if (before == State.RUNNING) {
        stuck.incrementAndGet();
        stuckInRegistry.incrementAndGet();
        synchronized (this) {
          if (runner != null) {
            runner.interrupt();
          }
        }
      }
      return before != State.DONE;
    }
  }
}
