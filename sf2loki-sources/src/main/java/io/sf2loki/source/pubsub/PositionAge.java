package io.sf2loki.source.pubsub;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The age of a topic's committed position, for {@code sf2loki_pubsub_position_age_seconds}: the
 * time since the position now committed was received. A position loaded at the start of a run
 * counts from that start. One per topic, used by its thread only.
 */
final class PositionAge {

  private static final int MAX_TRACKED = 10_000;

  /** One response's positions, in order, and when they were handed downstream. */
  private record Emitted(List<String> values, Instant at) {}

  private final String topic;
  private final Clock clock;
  private final PubSubMetrics metrics;
  // The positions handed downstream and not yet passed by a commit, oldest first: one entry per
  // response rather than a map entry per event, which was a twelfth of the source thread's time
  // (docs/performance.md §4, fifth round). The oldest response's first `from` values are gone.
  private final ArrayDeque<Emitted> received = new ArrayDeque<>();
  private int from;
  private int tracked;
  private String notOurs; // a committed value found in none of them; cleared by the next emitted
  private Instant committedAt;

  PositionAge(String topic, Clock clock, PubSubMetrics metrics) {
    this.topic = topic;
    this.clock = clock;
    this.metrics = metrics;
    this.committedAt = clock.instant();
  }

  /** A position was handed downstream now. */
  void emitted(String value) {
    emitted(List.of(value));
  }

  /** Positions were handed downstream now, in this order (one response's events). */
  void emitted(List<String> values) {
    if (values.isEmpty()) {
      return;
    }
    received.addLast(new Emitted(List.copyOf(values), clock.instant()));
    tracked += values.size();
    notOurs = null;
    while (tracked > MAX_TRACKED) {
      int left = received.peekFirst().values().size() - from;
      if (left <= tracked - MAX_TRACKED) {
        received.removeFirst();
        from = 0;
        tracked -= left;
      } else {
        from += tracked - MAX_TRACKED;
        tracked = MAX_TRACKED;
      }
    }
  }

  /**
   * Reads the committed value and updates the gauge.
   *
   * @return the committed value when it is a position this run handed downstream (not one loaded
   *     from the store)
   */
  Optional<String> observe(Optional<String> committed) {
    Optional<String> ours = Optional.empty();
    if (committed.isPresent() && !committed.get().equals(notOurs)) {
      if (passTo(committed.get())) {
        ours = committed;
      } else {
        notOurs = committed.get();
      }
    }
    metrics.positionAge(topic, Duration.between(committedAt, clock.instant()).toSeconds());
    return ours;
  }

  /** Finds {@code value} and forgets what was emitted before it; false when it is not there. */
  private boolean passTo(String value) {
    int skipped = 0;
    int start = from;
    Iterator<Emitted> it = received.iterator();
    while (it.hasNext()) {
      Emitted e = it.next();
      List<String> values = e.values();
      for (int i = start; i < values.size(); i++) {
        if (values.get(i).equals(value)) {
          for (int k = 0; k < skipped; k++) {
            tracked -= received.removeFirst().values().size() - from;
            from = 0;
          }
          tracked -= i - from;
          from = i;
          committedAt = e.at();
          return true;
        }
      }
      skipped++;
      start = 0;
    }
    return false;
  }
}
