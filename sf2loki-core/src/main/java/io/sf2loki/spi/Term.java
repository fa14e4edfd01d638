package io.sf2loki.spi;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * One leadership term granted by a {@link Coordinator}: valid from {@link
 * LeadershipListener#onAcquire} until {@link LeadershipListener#onLose} for the same term.
 *
 * <p>{@link #isCurrent()} turns false as soon as the coordinator stops believing it leads — before
 * {@code onLose} is delivered — so a store rejects commits from a demoted leader without waiting
 * for the listener.
 */
public interface Term extends Fence {

  /** The term's epoch: strictly greater than every epoch granted before it (invariant 2). */
  long epoch();

  /** The identity that holds the lease in this term. */
  String holder();

  /**
   * Why the coordinator ended this term, once it did: the lease was lost or given up (taken over,
   * expired, a renewal that could not complete in time). Empty while the term is current, after a
   * graceful release, and from coordinators that do not say.
   */
  default Optional<String> lossReason() {
    return Optional.empty();
  }

  @Override
  default OptionalLong fencingEpoch() {
    return OptionalLong.of(epoch());
  }

  @Override
  default String describe() {
    return holder() + " (epoch " + epoch() + ")";
  }
}
