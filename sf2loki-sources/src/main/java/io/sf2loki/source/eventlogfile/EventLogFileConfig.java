package io.sf2loki.source.eventlogfile;

import io.sf2loki.config.ConfigReader;
import io.sf2loki.config.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code sources.eventlogfile} section.
 *
 * @param eventTypes explicit types, plus {@code *} to discover
 * @param interval {@code Hourly} or {@code Daily}
 * @param pollInterval wait between cycles
 * @param lookback first-run window
 * @param settleWindow files younger than this wait a cycle
 * @param pageSize files per listing query
 * @param concurrency types in parallel
 * @param downloadMaxAge abandon a failing file once older than this
 * @param timestampColumn the event-time column
 * @param spoolMemory bytes kept in memory per download before spilling to disk
 * @param spoolDir where spilled downloads go; empty = the JVM temp directory
 */
public record EventLogFileConfig(
    List<String> eventTypes,
    String interval,
    Duration pollInterval,
    Duration lookback,
    Duration settleWindow,
    int pageSize,
    int concurrency,
    Duration downloadMaxAge,
    String timestampColumn,
    long spoolMemory,
    Optional<Path> spoolDir) {

  /** The wildcard entry of {@code event_types}. */
  public static final String DISCOVER = "*";

  public EventLogFileConfig {
    eventTypes = List.copyOf(eventTypes);
  }

  /** True when {@code event_types} holds {@code *}. */
  public boolean discovers() {
    return eventTypes.contains(DISCOVER);
  }

  /** The explicitly configured types, in config order. */
  public List<String> explicitTypes() {
    return eventTypes.stream().filter(t -> !t.equals(DISCOVER)).distinct().toList();
  }

  /** Binds and validates the section, recording every problem on {@code r}. */
  public static EventLogFileConfig bind(ConfigReader r) {
    List<String> types = new ArrayList<>();
    boolean badType = false;
    for (String t : r.stringList("event_types")) {
      if (!t.equals(DISCOVER) && !t.matches("[A-Za-z0-9_]+")) {
        r.problem(
            "event_types",
            r.path("event_types") + " entry '" + t + "' must be an event type name or *");
        badType = true;
      } else {
        types.add(t);
      }
    }
    if (types.isEmpty() && !badType) {
      r.problem("event_types", r.path("event_types") + " must list at least one type (or *)");
    }
    String interval = r.oneOf("interval", Set.of("Hourly", "Daily"));
    Duration settle =
        r.optionalDuration("settle_window")
            .orElse("Daily".equals(interval) ? Duration.ZERO : Duration.ofMinutes(5));
    if (settle.isNegative()) {
      r.problem(
          "settle_window",
          r.path("settle_window") + " (" + Durations.format(settle) + ") must not be negative");
    }
    String column = r.requiredString("timestamp_column");
    Optional<Path> spoolDir = r.optionalString("spool_dir").map(Path::of);
    return new EventLogFileConfig(
        types,
        interval,
        r.positiveDuration("poll_interval"),
        r.positiveDuration("lookback"),
        settle,
        r.intInRange("page_size", 1, 2000),
        r.intInRange("concurrency", 1, 16),
        r.positiveDuration("download_max_age"),
        column,
        r.bytes("spool_memory", 64 * 1024),
        spoolDir);
  }
}
