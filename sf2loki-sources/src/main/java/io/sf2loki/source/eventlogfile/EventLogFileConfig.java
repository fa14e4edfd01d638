package io.sf2loki.source.eventlogfile;

import io.sf2loki.config.Durations;
import io.sf2loki.shape.ShapingConfig;
import io.sf2loki.shape.TypeShaping;
import io.sf2loki.spi.ConfigSection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

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
 * @param shaping transforms, metadata fields and the label bound
 * @param typeShaping per-type labels, metadata override and sample rate, by type ({@code *}: the
 *     settings discovered types inherit); a type without an entry uses the defaults
 * @param window the CreatedDate bounds ({@code start}, {@code until}); unbounded for a live run
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
    Optional<Path> spoolDir,
    ShapingConfig shaping,
    Map<String, TypeShaping> typeShaping,
    ElfWindow window) {

  /** The wildcard entry of {@code event_types}. */
  public static final String DISCOVER = "*";

  private static final Set<String> TYPE_KEYS =
      Set.of("name", "sample", "structured_metadata_fields", "labels");

  public EventLogFileConfig {
    eventTypes = List.copyOf(eventTypes);
    typeShaping = Map.copyOf(typeShaping);
    java.util.Objects.requireNonNull(window, "window");
  }

  /** An unbounded section without transforms, metadata fields, labels or sampling. */
  public EventLogFileConfig(
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
    this(
        eventTypes,
        interval,
        pollInterval,
        lookback,
        settleWindow,
        pageSize,
        concurrency,
        downloadMaxAge,
        timestampColumn,
        spoolMemory,
        spoolDir,
        ShapingConfig.defaults(),
        Map.of(),
        ElfWindow.UNBOUNDED);
  }

  /** True when {@code event_types} holds {@code *}. */
  public boolean discovers() {
    return eventTypes.contains(DISCOVER);
  }

  /** The explicitly configured types, in config order. */
  public List<String> explicitTypes() {
    return eventTypes.stream().filter(t -> !t.equals(DISCOVER)).distinct().toList();
  }

  /**
   * The shaping of {@code type}: its own entry, else (a discovered type) the {@code *} entry's
   * sample rate and metadata override, else the defaults.
   */
  public TypeShaping shapingOf(String type) {
    TypeShaping own = typeShaping.get(type);
    if (own != null) {
      return own;
    }
    TypeShaping wildcard = typeShaping.get(DISCOVER);
    return wildcard == null
        ? TypeShaping.of(type)
        : new TypeShaping(type, wildcard.metadataFields(), List.of(), wildcard.sampleRate());
  }

  /** Binds and validates the section, recording every problem on {@code r}. */
  public static EventLogFileConfig bind(ConfigSection r) {
    ShapingConfig shaping = ShapingConfig.bind(r);
    List<String> types = new ArrayList<>();
    Map<String, TypeShaping> typeShaping = new LinkedHashMap<>();
    boolean badType = false;
    for (ConfigSection t : r.objectList("event_types", "name")) {
      Optional<TypeShaping> bound = bindType(r, t, shaping);
      if (bound.isEmpty()) {
        badType = true;
        continue;
      }
      String name = bound.get().eventType();
      if (typeShaping.putIfAbsent(name, bound.get()) != null) {
        t.problem("name", t.path("name") + ": event type '" + name + "' is listed twice");
      }
      types.add(name);
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
        spoolDir,
        shaping,
        typeShaping,
        ElfWindow.bind(r));
  }

  /**
   * One {@code event_types} entry: a name, or {name, sample, structured_metadata_fields, labels}.
   */
  private static Optional<TypeShaping> bindType(
      ConfigSection section, ConfigSection t, ShapingConfig shaping) {
    for (String key : t.keys()) {
      if (!TYPE_KEYS.contains(key)) {
        t.problem(
            key,
            t.path(key) + " is not an event type key (allowed: " + new TreeSet<>(TYPE_KEYS) + ")");
      }
    }
    String name = t.requiredString("name");
    if (name.isEmpty()) {
      return Optional.empty();
    }
    if (!name.equals(DISCOVER) && !name.matches("[A-Za-z0-9_]+")) {
      section.problem(
          "event_types",
          section.path("event_types") + " entry '" + name + "' must be an event type name or *");
      return Optional.empty();
    }
    Optional<List<String>> metadata =
        t.isSet("structured_metadata_fields")
            ? Optional.of(t.stringList("structured_metadata_fields"))
            : Optional.empty();
    List<String> labels = t.stringList("labels");
    if (name.equals(DISCOVER) && !labels.isEmpty()) {
      t.problem(
          "labels",
          t.path("labels") + " is not allowed on the * entry; promote labels per explicit type");
      labels = List.of();
    }
    shaping.checkLabels(t, "labels", name, labels);
    double rate = ShapingConfig.rate(t, "sample");
    return Optional.of(new TypeShaping(name, metadata, labels, rate));
  }
}
