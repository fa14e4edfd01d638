package io.sf2loki.coordinate.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.EpochFloor;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * While a term is held, compares the store's persisted epoch ({@link EpochFloor#persistedEpoch()},
 * a fresh read: one state-file read, S3 GET or GCS GET) with the term's. A store epoch above the
 * term's means a {@code --fence-leader} repair, or another leader, claimed a later epoch: every
 * commit of this term would be refused, so it must end even when it has nothing to commit.
 *
 * <p>The read runs on a thread of its own, never on the coordinator's: a slow or hung store (or one
 * busy with a long commit, which holds the store's monitor) then cannot delay a lease renewal. The
 * coordinator waits for a read it has just started at most {@code wait}; a read still running then
 * is looked at again at the next check, and no second read starts while one runs. Epochs only rise,
 * so a late answer above the term's is as conclusive as a fresh one. A read that fails (store
 * unavailable, corrupt) never ends the term: it is counted, logged at WARN once per streak and
 * tried again at the next check.
 *
 * <p>Meters: {@code sf2loki_fence_checks{outcome}} with {@code kept} (the store's epoch is at most
 * the term's), {@code fenced} (above: the term ends) and {@code error} (the read failed). Not
 * thread-safe: called from the coordinator's thread only.
 */
public final class FenceCheck implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FenceCheck.class);
  private static final long IDLE_SECONDS = 5;

  private final Optional<EpochFloor> floor;
  private final Duration wait;
  private final ThreadPoolExecutor reader;
  private final Counter kept;
  private final Counter fenced;
  private final Counter failed;
  private CompletableFuture<OptionalLong> running;
  private boolean failing;

  /**
   * @param floor the store's persisted epoch; without one, nothing is checked
   * @param wait how long the caller waits for a read it has just started
   * @param threads makes the reading thread (renamed {@code sf2loki-fence-check}); it ends when
   *     idle
   * @param metrics where the checks are counted
   */
  public FenceCheck(
      Optional<EpochFloor> floor, Duration wait, ThreadFactory threads, MeterRegistry metrics) {
    this.floor = Objects.requireNonNull(floor, "floor");
    this.wait = Objects.requireNonNull(wait, "wait");
    Objects.requireNonNull(threads, "threads");
    this.reader =
        new ThreadPoolExecutor(
            1,
            1,
            IDLE_SECONDS,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            body -> {
              Thread t = threads.newThread(body);
              t.setName("sf2loki-fence-check");
              return t;
            });
    this.reader.allowCoreThreadTimeOut(true);
    this.kept = counter(metrics, "kept");
    this.fenced = counter(metrics, "fenced");
    this.failed = counter(metrics, "error");
  }

  private static Counter counter(MeterRegistry metrics, String outcome) {
    return Counter.builder("sf2loki_fence_checks")
        .description(
            "checks of the store's fence epoch by the leader, at each lease renewal: kept (at most"
                + " the term's), fenced (above it: the term ended) or error (the read failed)")
        .tag("outcome", outcome)
        .register(metrics);
  }

  /**
   * One check, after a confirmed renewal of {@code term}.
   *
   * @param location the lease's path or {@code namespace/name}, for messages
   * @return the store's epoch when it is above the term's: the term must end
   */
  public OptionalLong check(LeaseTerm term, String location) throws InterruptedException {
    if (floor.isEmpty()) {
      return OptionalLong.empty();
    }
    if (running == null) {
      try {
        running = CompletableFuture.supplyAsync(floor.get()::persistedEpoch, reader);
      } catch (RejectedExecutionException e) {
        return OptionalLong.empty(); // closed
      }
      try {
        running.get(wait.toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        // still reading: looked at again at the next check; a failure is taken below
      }
    }
    if (!running.isDone()) {
      return OptionalLong.empty();
    }
    CompletableFuture<OptionalLong> done = running;
    running = null;
    OptionalLong epoch;
    try {
      epoch = done.get();
    } catch (ExecutionException e) {
      failed(term, location, e.getCause());
      return OptionalLong.empty();
    }
    recovered(location);
    if (epoch.isPresent() && epoch.getAsLong() > term.epoch()) {
      fenced.increment();
      return epoch;
    }
    kept.increment();
    return OptionalLong.empty();
  }

  private void failed(LeaseTerm term, String location, Throwable cause) {
    failed.increment();
    if (!failing) {
      failing = true;
      LOG.warn(
          "cannot read the state store's fence epoch while leading lease {} with epoch {};"
              + " keeping the term and trying again at each renewal ({}: {})",
          location,
          term.epoch(),
          cause.getClass().getSimpleName(),
          cause.getMessage());
    }
  }

  private void recovered(String location) {
    if (failing) {
      failing = false;
      LOG.info("the state store's fence epoch is readable again (lease {})", location);
    }
  }

  /** Stops the reading thread; a read still running is abandoned to the store's own deadline. */
  @Override
  public void close() {
    reader.shutdownNow();
  }
}
