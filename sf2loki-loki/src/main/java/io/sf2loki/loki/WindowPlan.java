package io.sf2loki.loki;

import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Where a batch's entries go with respect to Loki's time rules ({@link WindowPlanner}).
 *
 * @param send the entries to push, in batch order: on-time ones as they were, the others as placed
 * @param placements how each entry of {@code send} that is not as it was came to be, by identity of
 *     the placed entry
 * @param dropped entries removed from {@code send}: by the configured {@code drop} policy, or not
 *     pushed again ({@link Action#UNCONFIRMED})
 * @param holdUntilNanos the push must not start before this wall-clock time (nanoseconds since the
 *     epoch) because of held too-new entries; {@link Long#MIN_VALUE} when nothing is held
 * @param version the {@link StreamNewest#version()} the plan was made under
 * @param before each stream's newest timestamp as known before this batch: a plan made again (after
 *     a lesson, or for a retry) compares the batch with this, never with its own entries
 * @param plannedAt the wall-clock time the plan was made for
 */
record WindowPlan(
    List<LogEntry> send,
    Map<LogEntry, Placement> placements,
    List<Placement> dropped,
    long holdUntilNanos,
    long version,
    Map<StringMap, Long> before,
    Instant plannedAt) {

  /** Why an entry is outside Loki's windows, named like Loki's discard reasons. */
  enum Reason {
    TOO_FAR_BEHIND("too_far_behind"),
    TOO_FAR_IN_FUTURE("too_far_in_future"),
    TOO_OLD("greater_than_max_sample_age");

    final String tag;

    Reason(String tag) {
      this.tag = tag;
    }
  }

  /** What was done about it. */
  enum Action {
    ROUTED("routed"),
    RETIMESTAMPED("retimestamped"),
    HELD("held"),
    DROPPED("dropped"),
    /**
     * Not pushed: Loki refuses where an earlier push of a replay put it ({@link PlacementLedger}),
     * and that push may have stored it, so placing it anew could store it twice.
     */
    UNCONFIRMED("unconfirmed");

    final String tag;

    Action(String tag) {
      this.tag = tag;
    }
  }

  /**
   * One entry's placement.
   *
   * @param original the entry as the source made it (and as shaped)
   * @param placed what is pushed instead (the original itself when held; unused when dropped; the
   *     pinned placement Loki refuses when unconfirmed)
   * @param reason which rule it broke
   * @param action what the policy did
   */
  record Placement(LogEntry original, LogEntry placed, Reason reason, Action action) {}
}
