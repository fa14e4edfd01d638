package io.sf2loki.source.pubsub;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
  private final Map<String, Instant> received = new LinkedHashMap<>();
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
    Instant now = clock.instant();
    for (String value : values) {
      received.put(value, now);
    }
    Iterator<String> it = received.keySet().iterator();
    while (received.size() > MAX_TRACKED) {
      it.next();
      it.remove();
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
      Instant at = received.get(committed.get());
      if (at != null) {
        ours = committed;
        committedAt = at;
        Iterator<Map.Entry<String, Instant>> it = received.entrySet().iterator();
        while (it.hasNext() && !it.next().getKey().equals(committed.get())) {
          it.remove();
        }
      }
    }
    metrics.positionAge(topic, Duration.between(committedAt, clock.instant()).toSeconds());
    return ours;
  }
}
