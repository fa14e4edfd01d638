package io.sf2loki.source.pubsub;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The age of a topic's committed position, for {@code sf2loki_pubsub_position_age_seconds}: the
 * time since the position now committed was received. A position loaded at the start of a run
 * counts from that start. One per topic, used by its thread only.
 */
final class PositionAge {

  /**
   * More than a topic can have handed downstream and not yet committed: the lane queue and the
   * delivered entries waiting for a checkpoint write (queue_maxsize each, 10,000 by default), the
   * batch in push and the one waiting for it. A committed position already forgotten leaves the
   * gauge growing and a managed subscription without its server-side commit.
   */
  static final int MAX_TRACKED = 50_000;

  private final String topic;
  private final Clock clock;
  private final PubSubMetrics metrics;

  /*
   * The positions handed downstream and not yet committed, oldest first, in a ring addressed by a
   * running sequence number. A map (the first version) cost a node per event and its removal, cold
   * in the cache once commits are a second apart: 14 % of the subscriber thread at its ceiling. The
   * committed position only moves forward through this order, so finding it is a scan from the
   * oldest that forgets what it passes: constant work per event.
   */
  private String[] values = new String[1024];
  private Instant[] times = new Instant[1024];
  private long oldest;
  private long next;

  /*
   * A committed value not found, and how far it was looked for: a position loaded from the store
   * stays committed until this run's first write, and is looked for only among positions emitted
   * since.
   */
  private String missed;
  private long missedUpTo;

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
  void emitted(List<String> positions) {
    Instant now = clock.instant();
    for (int i = 0, n = positions.size(); i < n; i++) {
      if (next - oldest == MAX_TRACKED) {
        forgetUpTo(oldest + 1);
      } else if (next - oldest == values.length) {
        grow();
      }
      int slot = slot(next++);
      values[slot] = positions.get(i);
      times[slot] = now;
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
    if (committed.isPresent()) {
      String value = committed.get();
      long from = value.equals(missed) ? Math.max(oldest, missedUpTo) : oldest;
      long at = from;
      while (at < next && !value.equals(values[slot(at)])) {
        at++;
      }
      if (at < next) {
        ours = committed;
        committedAt = times[slot(at)];
        forgetUpTo(at);
        missed = null;
      } else {
        missed = value;
        missedUpTo = next;
      }
    }
    metrics.positionAge(topic, Duration.between(committedAt, clock.instant()).toSeconds());
    return ours;
  }

  /**
   * Forgets the positions before sequence {@code end}. Their slots keep the references until
   * overwritten: clearing a second's worth of slots at each commit, cold in the cache, cost as much
   * as the map it replaced; what stays reachable is bounded by the ring's size.
   */
  private void forgetUpTo(long end) {
    oldest = end;
  }

  private void grow() {
    int size = values.length;
    String[] v = new String[Math.min(size * 2, Integer.highestOneBit(MAX_TRACKED - 1) << 1)];
    Instant[] t = new Instant[v.length];
    for (long s = oldest; s < next; s++) {
      v[(int) (s & (v.length - 1))] = values[slot(s)];
      t[(int) (s & (v.length - 1))] = times[slot(s)];
    }
    values = v;
    times = t;
  }

  private int slot(long sequence) {
    return (int) (sequence & (values.length - 1));
  }
}
