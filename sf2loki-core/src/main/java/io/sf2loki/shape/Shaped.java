package io.sf2loki.shape;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** What {@link Shaper#shape} made of one record. */
public sealed interface Shaped permits Shaped.Kept, Shaped.Dropped, Shaped.SampledOut {

  /**
   * A record to ship.
   *
   * @param timestamp the event time (or the counted fallback)
   * @param labels stream labels: promoted, deployment, then identity ({@code source}, {@code
   *     event_type}) so identity wins
   * @param line the canonical JSON of the transformed payload
   * @param metadata structured metadata, {@code level} included
   */
  record Kept(
      Instant timestamp, Map<String, String> labels, String line, Map<String, String> metadata)
      implements Shaped {

    public Kept {
      Objects.requireNonNull(timestamp, "timestamp");
      labels = StringMap.of(labels); // kept as is when shared (Shaper interns label sets)
      Objects.requireNonNull(line, "line");
      metadata = StringMap.of(metadata);
    }

    /** The Loki entry carrying {@code token} (empty when a later entry carries the cursor). */
    public LogEntry entry(Optional<CheckpointToken> token) {
      return LogEntry.of(EventTimes.epochNanos(timestamp), labels, line, metadata, token);
    }
  }

  /**
   * Dropped by a {@code drop_row} rule (counted in {@code sf2loki_rows_filtered}).
   *
   * @param rule the rule's name
   */
  record Dropped(String rule) implements Shaped {}

  /** Not kept by sampling (counted in {@code sf2loki_entries_sampled_out}). */
  record SampledOut() implements Shaped {}
}
