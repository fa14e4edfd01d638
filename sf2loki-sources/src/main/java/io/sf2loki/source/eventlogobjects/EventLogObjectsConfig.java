package io.sf2loki.source.eventlogobjects;

import io.sf2loki.config.Durations;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.shape.Glob;
import io.sf2loki.shape.ShapingConfig;
import io.sf2loki.shape.TypeShaping;
import io.sf2loki.source.window.TimeWindow;
import io.sf2loki.spi.ConfigSection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The bound {@code sources.eventlog_objects} section.
 *
 * @param objects the objects in config order (presets appended, duplicates removed)
 * @param maxCatchupRecords rows one big-object drain keeps in memory; 0 = unbounded
 * @param shaping transforms, metadata fields and the label bound
 * @param window the {@code start}/{@code until} bounds on each object's timestamp field; unbounded
 *     for a live run
 * @param discovery how the Event Log Objects the org lists are added at run time, when the preset
 *     {@value #DISCOVER_PRESET} asks for them
 */
public record EventLogObjectsConfig(
    List<ObjectSpec> objects,
    long maxCatchupRecords,
    ShapingConfig shaping,
    TimeWindow window,
    Optional<Discovery> discovery) {

  /** The preset that adds every Event Log Object the org lists, found at run time. */
  public static final String DISCOVER_PRESET = "event_log_objects";

  /**
   * Event Log Objects found at run time ({@code describeGlobal}: names ending in {@code EventLog},
   * queryable), less those listed in {@code objects} and those {@code exclude} matches, each with
   * the section's settings.
   *
   * @param exclude globs of object names not to read ({@code event_log_objects_exclude})
   * @param pollInterval the section's poll interval
   * @param lookback the section's lookback
   * @param settleWindow the settle of an Event Log Object: the section's, at least 50m
   */
  public record Discovery(
      List<Glob> exclude, Duration pollInterval, Duration lookback, Duration settleWindow) {
    public Discovery {
      exclude = List.copyOf(exclude);
    }

    /** The spec of a discovered object. */
    public ObjectSpec spec(String name) {
      return new ObjectSpec(
          name, "Timestamp", false, pollInterval, lookback, settleWindow, TypeShaping.of(name));
    }
  }

  private static final Set<String> OBJECT_KEYS =
      Set.of(
          "name",
          "timestamp_field",
          "big_object",
          "poll_interval",
          "lookback",
          "settle_window",
          "sample",
          "structured_metadata_fields",
          "labels");

  public EventLogObjectsConfig {
    objects = List.copyOf(objects);
    java.util.Objects.requireNonNull(window, "window");
    java.util.Objects.requireNonNull(discovery, "discovery");
  }

  /** Without run-time discovery. */
  public EventLogObjectsConfig(
      List<ObjectSpec> objects, long maxCatchupRecords, ShapingConfig shaping, TimeWindow window) {
    this(objects, maxCatchupRecords, shaping, window, Optional.empty());
  }

  /** Binds and validates {@code section}, recording every problem on it. */
  public static EventLogObjectsConfig bind(ConfigSection section) {
    ShapingConfig shaping = ShapingConfig.bind(section);
    Duration poll = section.positiveDuration("poll_interval");
    Duration lookback = section.positiveDuration("lookback");
    Duration settle = section.duration("settle_window");
    long cap = section.longInRange("max_catchup_records", 0, 100_000_000);
    Map<String, ObjectSpec> objects = new LinkedHashMap<>();
    for (ConfigSection o : section.objectList("objects")) {
      bindObject(o, shaping, poll, lookback, settle)
          .ifPresent(spec -> addOnce(objects, spec, o, section));
    }
    Optional<Discovery> discovery = Optional.empty();
    List<Glob> exclude = new ArrayList<>();
    section.stringList("event_log_objects_exclude").forEach(g -> exclude.add(Glob.of(g)));
    for (String preset : section.stringList("presets")) {
      if (preset.equals(DISCOVER_PRESET)) {
        Duration eloSettle =
            settle.compareTo(EloPoll.DEFAULT_SETTLE) > 0 ? settle : EloPoll.DEFAULT_SETTLE;
        discovery = Optional.of(new Discovery(exclude, poll, lookback, eloSettle));
        continue;
      }
      Optional<List<String>> names = ObjectPresets.preset(preset);
      if (names.isEmpty()) {
        section.problem(
            "presets",
            section.path("presets")
                + ": unknown preset '"
                + preset
                + "' (known: "
                + String.join(", ", knownPresets())
                + ")");
        continue;
      }
      for (String name : names.get()) {
        objects.putIfAbsent(name, defaults(name, poll, lookback, settle));
      }
    }
    return new EventLogObjectsConfig(
        new ArrayList<>(objects.values()), cap, shaping, TimeWindow.bind(section), discovery);
  }

  private static Set<String> knownPresets() {
    Set<String> out = new TreeSet<>(ObjectPresets.presetNames());
    out.add(DISCOVER_PRESET);
    return out;
  }

  private static void addOnce(
      Map<String, ObjectSpec> objects, ObjectSpec spec, ConfigSection o, ConfigSection section) {
    if (objects.putIfAbsent(spec.name(), spec) != null) {
      o.problem("name", o.path("name") + ": object '" + spec.name() + "' is listed twice");
    }
  }

  /**
   * An Event Log Object is read by {@code Timestamp}, ascending, with a settle of at least their
   * 45-minute visibility lag; unset, the settle is {@link EloPoll#DEFAULT_SETTLE}.
   */
  private static Duration eventLogObjectRules(
      ConfigSection o, String tsf, boolean big, Duration objectSettle, Duration sectionSettle) {
    if (!tsf.equals("Timestamp")) {
      o.problem(
          "timestamp_field",
          o.path("timestamp_field") + " must be Timestamp for an Event Log Object (*EventLog)");
    }
    if (big) {
      o.problem("big_object", o.path("big_object") + " must be false for an Event Log Object");
    }
    if (!o.isSet("settle_window")) {
      return sectionSettle.compareTo(EloPoll.DEFAULT_SETTLE) > 0
          ? sectionSettle
          : EloPoll.DEFAULT_SETTLE;
    }
    if (objectSettle.compareTo(EloPoll.MIN_SETTLE) < 0) {
      o.problem(
          "settle_window",
          o.path("settle_window")
              + " ("
              + Durations.format(objectSettle)
              + ") must be at least 45m for an Event Log Object: rows become queryable up to 45"
              + " minutes late");
    }
    return objectSettle;
  }

  private static ObjectSpec defaults(
      String name, Duration poll, Duration lookback, Duration settle) {
    return new ObjectSpec(
        name,
        ObjectPresets.timestampField(name),
        ObjectPresets.isBigObject(name),
        poll,
        lookback,
        settle,
        TypeShaping.of(name));
  }

  private static Optional<ObjectSpec> bindObject(
      ConfigSection o, ShapingConfig shaping, Duration poll, Duration lookback, Duration settle) {
    for (String key : o.keys()) {
      if (!OBJECT_KEYS.contains(key)) {
        o.problem(
            key,
            o.path(key) + " is not an object key (allowed: " + new TreeSet<>(OBJECT_KEYS) + ")");
      }
    }
    String name = o.requiredString("name");
    if (!name.isEmpty() && !Soql.isIdentifier(name)) {
      o.problem("name", o.path("name") + " ('" + name + "') must match ^[A-Za-z0-9_]+$");
    }
    String tsf = o.optionalString("timestamp_field").orElse(ObjectPresets.timestampField(name));
    if (!Soql.isIdentifier(tsf)) {
      o.problem(
          "timestamp_field",
          o.path("timestamp_field") + " ('" + tsf + "') must match ^[A-Za-z0-9_]+$");
    }
    boolean big = o.isSet("big_object") ? o.bool("big_object") : ObjectPresets.isBigObject(name);
    Duration objectPoll = o.isSet("poll_interval") ? o.positiveDuration("poll_interval") : poll;
    Duration objectLookback = o.isSet("lookback") ? o.positiveDuration("lookback") : lookback;
    Duration objectSettle = o.optionalDuration("settle_window").orElse(settle);
    if (objectSettle.isNegative()) {
      o.problem(
          "settle_window",
          o.path("settle_window")
              + " ("
              + Durations.format(objectSettle)
              + ") must not be negative");
    }
    if (EloPoll.isEventLogObject(name)) {
      objectSettle = eventLogObjectRules(o, tsf, big, objectSettle, settle);
    }
    Optional<List<String>> metadata =
        o.isSet("structured_metadata_fields")
            ? Optional.of(o.stringList("structured_metadata_fields"))
            : Optional.empty();
    List<String> labels = o.stringList("labels");
    shaping.checkLabels(o, "labels", name, labels);
    double rate = ShapingConfig.rate(o, "sample");
    if (name.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ObjectSpec(
            name,
            tsf,
            big,
            objectPoll,
            objectLookback,
            objectSettle,
            new TypeShaping(name, metadata, labels, rate)));
  }
}
