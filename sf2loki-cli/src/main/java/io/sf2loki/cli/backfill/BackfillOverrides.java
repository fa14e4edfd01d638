package io.sf2loki.cli.backfill;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.DocumentNames;
import io.sf2loki.config.LoadedConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the daemon's configuration into the backfill's, key by key, so the run is the daemon's own
 * engine with: only the requested source enabled, bounded by {@code start}/{@code until} and
 * optionally fewer event types (or objects); the {@code noop} coordinator (it never joins the
 * election); the checkpoint store pointed at a document of its own next to the daemon's, one per
 * source and window, so that progress made in one window is never taken for another's; and a
 * dead-letter file of its own. Everything else (Salesforce, Loki, batching, retries, time windows,
 * shaping) is the daemon's.
 */
final class BackfillOverrides {

  /**
   * What a backfill file is named after ({@code dead.ndjson → dead-backfill.ndjson}), and the whole
   * suffix of the single progress document of every window that earlier versions kept ({@code
   * state.json → state-backfill.json}; {@link LegacyDocument}).
   */
  static final String SUFFIX = "-backfill";

  private BackfillOverrides() {}

  /**
   * The backfill's configuration, its progress in the document of the request's source and window:
   * {@code state.json → state-backfill-eventlogfile-20260701T000000Z-20260703T000000Z.json}.
   *
   * @throws ConfigInvalidException when the store type has no known document key
   */
  static LoadedConfig apply(LoadedConfig loaded, BackfillRequest request) {
    return apply(loaded, request, documentSuffix(request));
  }

  /** {@code -backfill-<source>-<window>}: what the daemon's document name gains. */
  static String documentSuffix(BackfillRequest request) {
    return SUFFIX + "-" + request.source() + "-" + request.windowName();
  }

  /**
   * The backfill's configuration with its progress in the document named with {@code
   * documentSuffix} instead.
   */
  static LoadedConfig apply(LoadedConfig loaded, BackfillRequest request, String documentSuffix) {
    Config c = loaded.resolved();
    for (Map.Entry<String, ConfigValue> e : c.getObject("sources").entrySet()) {
      if (e.getValue().valueType() == ConfigValueType.OBJECT
          && c.hasPath("sources." + e.getKey() + ".enabled")) {
        c = set(c, "sources." + e.getKey() + ".enabled", e.getKey().equals(request.source()));
      }
    }
    String section = "sources." + request.source();
    c = set(c, section + ".start", request.since().toString());
    c = set(c, section + ".until", request.until().toString());
    if (!request.eventTypes().isEmpty()
        && request.source().equals(BackfillRequest.EVENTLOG_OBJECTS)) {
      c = set(c, section + ".objects", objects(c, section, request.eventTypes()));
      c = set(c, section + ".presets", List.of());
    } else if (!request.eventTypes().isEmpty()) {
      c = set(c, section + ".event_types", eventTypes(c, section, request.eventTypes()));
    }
    c = set(c, "coordinate.type", "noop");
    String documentKey = documentKey(c);
    c = set(c, documentKey, DocumentNames.suffixed(c.getString(documentKey), documentSuffix));
    if (c.hasPath("sink.loki.dead_letter_file")
        && !c.getString("sink.loki.dead_letter_file").isBlank()) {
      c =
          set(
              c,
              "sink.loki.dead_letter_file",
              backfillName(c.getString("sink.loki.dead_letter_file")));
    }
    return new LoadedConfig(c, loaded.schema());
  }

  /** The key naming the checkpoint document of the configured store. */
  static String documentKey(Config c) {
    String store = c.getString("state.store");
    String key = DocumentNames.documentKey(store).orElse(null);
    if (key == null) {
      throw ConfigInvalidException.of(
          "state.store",
          "backfill keeps its checkpoints in a document of its own next to the daemon's, which it"
              + " can name for the file, s3 and gcs stores only (state.store is "
              + store
              + ")");
    }
    return key;
  }

  /**
   * {@code dir/state.json → dir/state-backfill.json}; a name without extension gains the suffix.
   */
  static String backfillName(String path) {
    return DocumentNames.suffixed(path, SUFFIX);
  }

  /**
   * The requested types as {@code event_types} entries: a configured entry of that name keeps its
   * shaping, another type inherits the {@code *} entry's, else it is a bare name.
   */
  private static List<Object> eventTypes(Config c, String section, List<String> requested) {
    Map<String, Object> configured = entriesByName(c, section + ".event_types");
    List<Object> out = new ArrayList<>();
    for (String type : requested) {
      Object own = configured.get(type);
      if (own != null) {
        out.add(own);
      } else if (configured.get("*") instanceof Map<?, ?> wildcard) {
        Map<Object, Object> inherited = new LinkedHashMap<>(wildcard);
        inherited.put("name", type);
        out.add(inherited);
      } else {
        out.add(type);
      }
    }
    return out;
  }

  /**
   * The requested objects as {@code objects} entries: a configured entry of that name keeps its
   * settings; another object (one of a preset, or none configured) gets its defaults.
   */
  private static List<Object> objects(Config c, String section, List<String> requested) {
    Map<String, Object> configured = entriesByName(c, section + ".objects");
    List<Object> out = new ArrayList<>();
    for (String object : requested) {
      out.add(configured.getOrDefault(object, Map.of("name", object)));
    }
    return out;
  }

  /** The entries of the list at {@code path} (names or objects with a name), by name. */
  private static Map<String, Object> entriesByName(Config c, String path) {
    Map<String, Object> byName = new LinkedHashMap<>();
    for (Object entry : c.getList(path).unwrapped()) {
      name(entry).ifPresent(n -> byName.put(n, entry));
    }
    return byName;
  }

  private static Optional<String> name(Object entry) {
    if (entry instanceof String s) {
      return Optional.of(s);
    }
    if (entry instanceof Map<?, ?> m && m.get("name") instanceof String s) {
      return Optional.of(s);
    }
    return Optional.empty();
  }

  private static Config set(Config c, String path, Object value) {
    return c.withValue(path, ConfigValueFactory.fromAnyRef(value));
  }
}
