package io.sf2loki.spi;

/**
 * Receives leadership changes from a {@link Coordinator}. Calls strictly alternate: every {@link
 * #onAcquire} is followed by exactly one {@link #onLose} for the same term before the next acquire.
 *
 * <p>Called on the coordinator's thread, never under the coordinator's locks. The state may already
 * have moved on when a call runs: check {@link Term#isCurrent()} rather than trusting the call.
 * {@code onLose} should stop and drain the term's work and may block for the drain.
 */
public interface LeadershipListener {

  /** This process now leads with {@code term}; start a fresh pipeline run fenced by it. */
  void onAcquire(Term term);

  /**
   * This process no longer leads in {@code term} (lost, surrendered, released at shutdown). Losing
   * is not dying: the process returns to standby (invariant 3).
   */
  void onLose(Term term);
}
