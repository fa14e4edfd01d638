package io.sf2loki.pipeline;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** Entries for sink and pipeline tests; timestamps near the real now so Loki's age rules pass. */
public final class Entries {

  /** A base timestamp one minute ago, in nanoseconds. */
  public static final long T0 = Instant.now().minusSeconds(60).getEpochSecond() * 1_000_000_000L;

  private Entries() {}

  public static LogEntry entry(String source, String eventType, long offsetNanos, String line) {
    return LogEntry.of(
        T0 + offsetNanos,
        Map.of("job", "sf2loki", "source", source, "event_type", eventType),
        line,
        Map.of("level", "info"),
        Optional.empty());
  }

  public static LogEntry entry(String line, String key, String value) {
    return LogEntry.of(
        T0 + Math.abs(line.hashCode() % 1000),
        Map.of("job", "sf2loki", "source", "eventlogfile", "event_type", "Login"),
        line,
        Map.of(),
        Optional.of(new CheckpointToken(key, value)));
  }
}
