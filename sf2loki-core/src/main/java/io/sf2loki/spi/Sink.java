package io.sf2loki.spi;

import io.sf2loki.model.Batch;

/**
 * Delivers batches to Loki (or another log store).
 *
 * <p>Called from one push worker per lane; implementations must be safe for concurrent calls from
 * different lanes. A call returns normally only when every deliverable entry of the batch was
 * accepted or deliberately dropped and counted — that is what lets the pipeline commit the batch's
 * checkpoints (invariant 1).
 */
public interface Sink {

  /**
   * Pushes one batch.
   *
   * @throws RetryableSinkException the batch was not (fully) accepted and may succeed later (429,
   *     5xx, transport errors, misconfigured auth); the caller retries the same batch
   * @throws PermanentSinkException the batch can never be accepted as is; the caller counts its
   *     entries as dropped
   * @throws InterruptedException the push was interrupted (shutdown); nothing may be committed
   */
  void push(Batch batch)
      throws RetryableSinkException, PermanentSinkException, InterruptedException;

  /**
   * Optional work on {@code batch} ahead of its {@link #push} (shaping, encoding), called by the
   * pipeline on the thread that formed the batch while the lane's previous batch is still being
   * pushed, so that work overlaps the push round trip. Called at most once per batch, before its
   * push; the batch may then never be pushed (abandoned at shutdown). {@link #push} must be correct
   * whether or not this was called. No I/O; the default does nothing.
   */
  default void prepare(Batch batch) {}
}
