package io.sf2loki.spi;

/**
 * Elects one active instance among replicas and grants it fenced {@link Term}s.
 *
 * <p>{@link #run} campaigns, holds and renews until {@code stop} fires; it then releases the lease
 * (after {@code onLose} returned, so the final drain commits while still holding it) and returns.
 * Each winning acquire takes {@code max(lease epoch, store floor) + 1} (invariant 2).
 */
public interface Coordinator extends AutoCloseable {

  /**
   * Runs the election loop on the calling thread.
   *
   * @throws InterruptedException when the calling thread is interrupted; the lease is released on a
   *     best-effort basis and the interrupt flag must be restored by the caller
   * @throws CoordinatorException when campaigning fails (the lease cannot be read or written) while
   *     no term is held; transient or permanent, see {@link CoordinatorException#failureClass()}.
   *     The caller backs off and campaigns again with a fresh coordinator, or gives up
   */
  void run(LeadershipListener listener, StopSignal stop) throws InterruptedException;

  /** Releases clients. Idempotent; does not release a lease still held by a running loop. */
  @Override
  void close();
}
