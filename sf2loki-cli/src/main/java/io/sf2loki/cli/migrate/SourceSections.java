package io.sf2loki.cli.migrate;

import static io.sf2loki.cli.migrate.PythonType.BOOL;
import static io.sf2loki.cli.migrate.PythonType.DURATION;
import static io.sf2loki.cli.migrate.PythonType.INT;
import static io.sf2loki.cli.migrate.PythonType.NUMBER;
import static io.sf2loki.cli.migrate.PythonType.SCALAR_MAP;
import static io.sf2loki.cli.migrate.PythonType.STRING;
import static io.sf2loki.cli.migrate.PythonType.STRINGS;

import io.sf2loki.cli.migrate.MigrationNote.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code sources.*}: the four source families, their transform rules and their defaults. */
final class SourceSections {

  /** Our source sections, each of which takes its own structured-metadata list. */
  static final List<String> SOURCES =
      List.of("pubsub", "eventlogfile", "eventlog_objects", "apexlog");

  private SourceSections() {}

  static void convert(PythonSection sources) {
    Conversion conversion = sources.conversion();
    sources.copy("allow_overlap", BOOL, "sources.allow_overlap");
    Secrets.copy(sources, "transform_salt", "sources.transform_salt");
    Optional<PythonSection> pubsub = sources.section("pubsub");
    if (pubsub.isPresent()) {
      pubsub(pubsub.get());
    } else {
      pubsubDefault(conversion, sources.key("pubsub.enabled"));
    }
    sources.section("eventlogfile").ifPresent(SourceSections::eventLogFile);
    sources.section("eventlog_objects").ifPresent(SourceSections::eventLogObjects);
    sources.section("apexlog").ifPresent(SourceSections::apexLog);
    sources.finish();
  }

  private static void pubsub(PythonSection pubsub) {
    if (pubsub.has("enabled")) {
      pubsub.copy("enabled", BOOL, "sources.pubsub.enabled");
    } else {
      pubsubDefault(pubsub.conversion(), pubsub.key("enabled"));
    }
    pubsub.copy("endpoint", STRING, "sources.pubsub.endpoint");
    pubsub.copy("default_num_requested", INT, "sources.pubsub.default_num_requested");
    pubsub.copy("replay_preset", STRING, "sources.pubsub.replay_preset");
    pubsub.copy("topics", STRINGS, "sources.pubsub.topics");
    pubsub.copy("include", STRINGS, "sources.pubsub.include");
    pubsub.copy("exclude", STRINGS, "sources.pubsub.exclude");
    pubsub.copy("rediscovery_interval", DURATION, "sources.pubsub.rediscovery_interval");
    pubsub.copy("sample", SCALAR_MAP, "sources.pubsub.sample");
    transforms(pubsub, "sources.pubsub.transforms");
    pubsub.drop(
        "bridge_max_bytes",
        "the topic-to-pipeline bound is the streaming lane's queue here"
            + " (sink.loki.batch.queue_max_bytes)");
    pubsub.finish();
  }

  private static void pubsubDefault(Conversion conversion, String key) {
    conversion.set("sources.pubsub.enabled", true);
    conversion.note(
        key, Kind.DEFAULT_WRITTEN, "Pub/Sub is on by default in Python, off here: enabled = true");
  }

  private static void eventLogFile(PythonSection elf) {
    Conversion conversion = elf.conversion();
    boolean enabled = enabled(elf, "sources.eventlogfile.enabled");
    elf.copy("interval", STRING, "sources.eventlogfile.interval");
    List<Object> types = new ArrayList<>();
    elf.raw("event_types").ifPresent(v -> eventTypes(elf, v, types));
    if (!types.isEmpty()) {
      elf.set("event_types", "sources.eventlogfile.event_types", types);
    } else if (enabled) {
      conversion.problem(elf.key("event_types"), "must not be empty when eventlogfile is enabled");
    }
    elf.drop("exclude", "every type \"*\" discovers is ingested here; list the types instead");
    if (elf.has("poll_interval") || !enabled) {
      elf.copy("poll_interval", DURATION, "sources.eventlogfile.poll_interval");
    } else {
      conversion.set("sources.eventlogfile.poll_interval", "1h");
      conversion.note(
          elf.key("poll_interval"), Kind.DEFAULT_WRITTEN, "Python lists hourly, we every 10m: 1h");
    }
    elf.copy("lookback", DURATION, "sources.eventlogfile.lookback");
    elf.copy("timestamp_column", STRING, "sources.eventlogfile.timestamp_column");
    elf.copy("page_size", INT, "sources.eventlogfile.page_size");
    elf.copy("settle_window", DURATION, "sources.eventlogfile.settle_window");
    elf.copy("download_max_age", DURATION, "sources.eventlogfile.download_max_age");
    elf.copy("concurrency", INT, "sources.eventlogfile.concurrency");
    transforms(elf, "sources.eventlogfile.transforms");
    elf.finish();
  }

  private static void eventTypes(PythonSection elf, Object value, List<Object> types) {
    String key = elf.key("event_types") + "[]";
    if (!(value instanceof List<?> list)) {
      elf.conversion().problem(elf.key("event_types"), "must be a list");
      return;
    }
    for (Object element : list) {
      if (element instanceof String name) {
        types.add(name);
      } else if (element instanceof Map<?, ?> map) {
        PythonSection type = new PythonSection(key, new LinkedHashMap<>(map), elf.conversion());
        Map<String, Object> entry = new LinkedHashMap<>();
        type.string("name").ifPresent(n -> entry.put("name", n));
        type.raw("structured_metadata_fields")
            .flatMap(
                v -> STRINGS.convert(elf.conversion(), type.key("structured_metadata_fields"), v))
            .ifPresent(v -> entry.put("structured_metadata_fields", v));
        type.convert("labels", STRINGS).ifPresent(v -> entry.put("labels", v));
        type.convert("sample", NUMBER).ifPresent(v -> entry.put("sample", v));
        if (!entry.containsKey("name")) {
          elf.conversion().problem(key + ".name", "required");
        }
        type.finish();
        types.add(entry);
      } else {
        elf.conversion().problem(key, "must be a type name or a mapping");
      }
    }
  }

  private static void eventLogObjects(PythonSection objects) {
    Conversion conversion = objects.conversion();
    boolean enabled = enabled(objects, "sources.eventlog_objects.enabled");
    List<Object> entries = new ArrayList<>();
    long maxCatchup = -1;
    for (PythonSection object : objects.sections("objects")) {
      Map<String, Object> entry = new LinkedHashMap<>();
      object.string("name").ifPresentOrElse(n -> entry.put("name", n), () -> required(object));
      entry.put("timestamp_field", object.string("timestamp_field").orElse("EventDate"));
      object.convert("poll_interval", DURATION).ifPresent(v -> entry.put("poll_interval", v));
      object.convert("lookback", DURATION).ifPresent(v -> entry.put("lookback", v));
      object.convert("sample", NUMBER).ifPresent(v -> entry.put("sample", v));
      entry.put("big_object", object.convert("big_object", BOOL).orElse(Boolean.FALSE));
      Optional<Object> catchup = object.convert("max_catchup_records", INT);
      if (catchup.isPresent()) {
        maxCatchup = Math.max(maxCatchup, (Long) catchup.get());
      }
      object.finish();
      entries.add(entry);
    }
    if (!entries.isEmpty()) {
      objects.set("objects", "sources.eventlog_objects.objects", entries);
      conversion.note(
          objects.key("objects[]"),
          Kind.DEFAULT_WRITTEN,
          "timestamp_field (EventDate) and big_object (false) written out: our defaults depend on"
              + " the object");
    }
    if (maxCatchup >= 0) {
      conversion.set("sources.eventlog_objects.max_catchup_records", maxCatchup);
      conversion.mapped(
          objects.key("objects[].max_catchup_records"),
          "sources.eventlog_objects.max_catchup_records");
      conversion.note(
          objects.key("objects[].max_catchup_records"),
          Kind.DIFFERENT_SEMANTICS,
          "one value for every object here: the largest, " + maxCatchup);
    }
    if (enabled) {
      conversion.set("sources.eventlog_objects.settle_window", "0s");
      conversion.note(
          objects.key("settle_window"),
          Kind.DEFAULT_WRITTEN,
          "Python polls up to now, ours waits 5m for late rows by default: 0s");
    }
    transforms(objects, "sources.eventlog_objects.transforms");
    objects.finish();
  }

  /** The section's {@code enabled} (Python default false), always written, reported when set. */
  private static boolean enabled(PythonSection section, String target) {
    Optional<Object> enabled = section.convert("enabled", BOOL);
    enabled.ifPresentOrElse(
        v -> section.set("enabled", target, v),
        () -> section.conversion().set(target, Boolean.FALSE));
    return (Boolean) enabled.orElse(Boolean.FALSE);
  }

  private static void required(PythonSection object) {
    object.conversion().problem(object.key("name"), "required");
  }

  private static void apexLog(PythonSection apex) {
    apex.copy("enabled", BOOL, "sources.apexlog.enabled");
    apex.copy("poll_interval", DURATION, "sources.apexlog.poll_interval");
    apex.copy("lookback", DURATION, "sources.apexlog.lookback");
    apex.copy("users", STRINGS, "sources.apexlog.users");
    apex.copy("max_body_bytes", INT, "sources.apexlog.max_body_bytes");
    apex.copy("sample", NUMBER, "sources.apexlog.sample");
    if (transforms(apex, "sources.apexlog.transforms")) {
      apex.conversion()
          .note(
              apex.key("transforms"),
              Kind.DIFFERENT_SEMANTICS,
              "the rules also see the log body here, as field Body");
    }
    apex.finish();
  }

  /** Copies a rule list; true when there was one. */
  private static boolean transforms(PythonSection section, String target) {
    List<PythonSection> rules = section.sections("transforms");
    List<Object> converted = new ArrayList<>();
    for (PythonSection rule : rules) {
      Map<String, Object> entry = new LinkedHashMap<>();
      rule.string("action").ifPresentOrElse(a -> entry.put("action", a), () -> action(rule));
      rule.convert("fields", STRINGS).ifPresent(v -> entry.put("fields", v));
      rule.convert("match", SCALAR_MAP).ifPresent(v -> entry.put("match", v));
      rule.string("pattern")
          .ifPresent(
              pattern -> {
                entry.put("pattern", pattern);
                if (pattern.contains("(?P")) {
                  rule.conversion()
                      .note(
                          rule.key("pattern"),
                          Kind.DIFFERENT_SEMANTICS,
                          "compiled as a Java regex: rewrite (?P<n>...) as (?<n>...) and (?P=n) as"
                              + " \\k<n>");
                }
              });
      rule.string("replacement").ifPresent(v -> entry.put("replacement", v));
      rule.string("name").ifPresent(v -> entry.put("name", v));
      rule.finish();
      converted.add(entry);
    }
    if (!converted.isEmpty()) {
      section.set("transforms", target, converted);
    }
    return !converted.isEmpty();
  }

  private static void action(PythonSection rule) {
    rule.conversion().problem(rule.key("action"), "required");
  }
}
