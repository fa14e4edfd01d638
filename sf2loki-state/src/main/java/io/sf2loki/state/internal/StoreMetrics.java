package io.sf2loki.state.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.CorruptStateException;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreAccessDeniedException;
import io.sf2loki.spi.StoreConflictException;
import io.sf2loki.spi.StoreException;
import io.sf2loki.spi.StoreLockedException;
import io.sf2loki.spi.StoreTimeoutException;
import io.sf2loki.spi.StoreUnavailableException;
import io.sf2loki.spi.StoreUnsafeException;
import java.util.function.Supplier;

/**
 * The stores' meters: {@code sf2loki_checkpoint_commit_failures{store,reason}} for every failed
 * commit or delete, {@code sf2loki_checkpoint_fenced_commits{store}} for writes refused by the
 * fence, {@code sf2loki_checkpoint_write_retries{store,reason}} for transient retries and conflict
 * merges, and {@code sf2loki_checkpoint_heartbeat_failures{store,reason}} for a single-instance
 * object store's writer heartbeats that failed.
 */
public final class StoreMetrics {

  private final MeterRegistry registry;
  private final String store;

  public StoreMetrics(MeterRegistry registry, String store) {
    this.registry = registry;
    this.store = store;
  }

  /** Runs a write, counting its failure by reason before rethrowing it. */
  public <T> T write(Supplier<T> operation) {
    try {
      return operation.get();
    } catch (StoreException e) {
      failed(e);
      throw e;
    }
  }

  /** Counts one retry ({@code transient} or {@code conflict}). */
  public void retried(String reason) {
    Counter.builder("sf2loki_checkpoint_write_retries")
        .description("checkpoint writes retried after a transient error or a merged conflict")
        .tag("store", store)
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  /** Counts a failed writer heartbeat, by the same reasons as a commit failure. */
  public void heartbeatFailed(RuntimeException e) {
    Counter.builder("sf2loki_checkpoint_heartbeat_failures")
        .description(
            "writer heartbeats of a single-instance S3/GCS store that failed, by reason"
                + " (locked: another instance took the object over)")
        .tag("store", store)
        .tag("reason", e instanceof StoreException se ? reason(se) : "error")
        .register(registry)
        .increment();
  }

  private void failed(StoreException e) {
    String reason = reason(e);
    Counter.builder("sf2loki_checkpoint_commit_failures")
        .description("checkpoint commits and deletes that failed, by reason")
        .tag("store", store)
        .tag("reason", reason)
        .register(registry)
        .increment();
    if (e instanceof FencedException) {
      Counter.builder("sf2loki_checkpoint_fenced_commits")
          .description("checkpoint writes refused because a newer leader owns the checkpoints")
          .tag("store", store)
          .register(registry)
          .increment();
    }
  }

  private static String reason(StoreException e) {
    if (e instanceof FencedException) {
      return "fenced";
    } else if (e instanceof StoreConflictException) {
      return "conflict";
    } else if (e instanceof CorruptStateException) {
      return "corrupt";
    } else if (e instanceof StoreLockedException) {
      return "locked";
    } else if (e instanceof StoreAccessDeniedException) {
      return "access_denied";
    } else if (e instanceof StoreTimeoutException) {
      return "timeout";
    } else if (e instanceof StoreUnavailableException) {
      return "unavailable";
    } else if (e instanceof StoreUnsafeException) {
      return "unsafe";
    }
    return "error";
  }
}
