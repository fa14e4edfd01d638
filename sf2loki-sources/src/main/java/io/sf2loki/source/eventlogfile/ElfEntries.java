package io.sf2loki.source.eventlogfile;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.source.shape.CanonicalJson;
import io.sf2loki.source.shape.Timestamps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns CSV rows into Loki entries: the line is the row's canonical JSON, the labels are the
 * deployment labels plus {@code source=eventlogfile} and {@code event_type} (identity wins), the
 * time is {@code timestamp_column}, then {@code TIMESTAMP}, then the file's CreatedDate (a fallback
 * older than 1 h is clamped to now − 5 min to stay inside Loki's out-of-order window).
 */
final class ElfEntries {

  private static final Duration CLAMP_AFTER = Duration.ofHours(1);
  private static final Duration CLAMP_TO = Duration.ofMinutes(5);

  private final Map<String, String> deploymentLabels;
  private final String timestampColumn;
  private final Clock clock;
  private final ElfMetrics metrics;

  ElfEntries(
      Map<String, String> deploymentLabels,
      String timestampColumn,
      Clock clock,
      ElfMetrics metrics) {
    this.deploymentLabels = Map.copyOf(deploymentLabels);
    this.timestampColumn = timestampColumn;
    this.clock = clock;
    this.metrics = metrics;
  }

  Map<String, String> labels(String eventType) {
    Map<String, String> labels = new HashMap<>(deploymentLabels);
    labels.put("source", ElfMetrics.SOURCE);
    labels.put("event_type", eventType);
    return labels;
  }

  LogEntry row(
      Map<String, String> row, Map<String, String> labels, ElfFile file, CheckpointToken token) {
    Instant t = eventTime(row, file);
    return LogEntry.of(
        Timestamps.epochNanos(t), labels, CanonicalJson.write(row), Map.of(), Optional.of(token));
  }

  private Instant eventTime(Map<String, String> row, ElfFile file) {
    Optional<Instant> t = Timestamps.parse(row.get(timestampColumn));
    if (t.isEmpty()) {
      t = Timestamps.parse(row.get("TIMESTAMP"));
    }
    if (t.isPresent()) {
      return t.get();
    }
    metrics.timestampFallback();
    Instant now = clock.instant();
    return file.created().isBefore(now.minus(CLAMP_AFTER)) ? now.minus(CLAMP_TO) : file.created();
  }
}
