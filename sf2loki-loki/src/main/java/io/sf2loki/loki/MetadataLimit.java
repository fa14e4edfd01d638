package io.sf2loki.loki;

import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import io.sf2loki.shape.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Keeps an entry's structured metadata within Loki 3's per-line limits ({@code
 * max_structured_metadata_entries_count} 128, {@code max_structured_metadata_size} 64 KB): Loki
 * refuses a line over either with a 400, which would drop it. The pairs that do not fit are moved
 * into the line instead, as the JSON object {@value #OVERFLOW_KEY} (a JSON line gains it as its
 * last key, any other line gets it appended after a space), so nothing is lost. {@code level} is
 * kept first; room is left for the {@code event_time} pair the time-window policy may add at push
 * time.
 */
final class MetadataLimit {

  /** Loki's {@code max_structured_metadata_entries_count} default. */
  static final int LOKI_MAX_ENTRIES = 128;

  /** Loki's {@code max_structured_metadata_size} default, in UTF-8 bytes of names and values. */
  static final int LOKI_MAX_BYTES = 64 * 1024;

  /** The key of the object in the line that holds the pairs moved out of the metadata. */
  static final String OVERFLOW_KEY = "structured_metadata_overflow";

  /** Room for {@code event_time}: one pair and its bytes (name and an RFC 3339 time with nanos). */
  private static final int RESERVED_ENTRIES = 1;

  private static final int RESERVED_BYTES = 64;

  /** Why pairs were moved: the first limit a pair did not fit. */
  enum Reason {
    TOO_MANY("too_many"),
    TOO_LARGE("too_large");

    final String tag;

    Reason(String tag) {
      this.tag = tag;
    }
  }

  /** An entry within the limits, and why it was changed, when it was. */
  record Result(LogEntry entry, Optional<Reason> reason) {}

  private MetadataLimit() {}

  static Result apply(LogEntry e) {
    StringMap metadata = e.metadata();
    if (metadata.size() <= LOKI_MAX_ENTRIES - RESERVED_ENTRIES
        && metadata.utf8Size() <= LOKI_MAX_BYTES - RESERVED_BYTES) {
      return new Result(e, Optional.empty()); // the common case: nothing to count
    }
    Map<String, String> kept = new LinkedHashMap<>();
    Map<String, String> moved = new TreeMap<>();
    long[] bytes = {0};
    Reason[] reason = {null};
    String level = metadata.get("level");
    if (level != null) {
      keep(kept, moved, bytes, reason, "level", level);
    }
    metadata.forEach(
        (name, value) -> {
          if (!name.equals("level")) {
            keep(kept, moved, bytes, reason, name, value);
          }
        });
    if (moved.isEmpty()) {
      return new Result(e, Optional.empty());
    }
    LogEntry trimmed =
        LogEntry.of(
            e.timestampNanos(),
            e.labels(),
            withOverflow(e.line(), moved),
            new TreeMap<>(kept),
            e.checkpoint());
    return new Result(trimmed, Optional.of(reason[0]));
  }

  private static void keep(
      Map<String, String> kept,
      Map<String, String> moved,
      long[] bytes,
      Reason[] reason,
      String name,
      String value) {
    long size = utf8(name) + utf8(value);
    Reason refused = null;
    if (kept.size() >= LOKI_MAX_ENTRIES - RESERVED_ENTRIES) {
      refused = Reason.TOO_MANY;
    } else if (bytes[0] + size > LOKI_MAX_BYTES - RESERVED_BYTES) {
      refused = Reason.TOO_LARGE;
    }
    if (refused == null) {
      kept.put(name, value);
      bytes[0] += size;
      return;
    }
    moved.put(name, value);
    if (reason[0] == null) {
      reason[0] = refused;
    }
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /** {@code line} with {@code moved} as its {@value #OVERFLOW_KEY} object. */
  static String withOverflow(String line, Map<String, String> moved) {
    String pair = CanonicalJson.write(OVERFLOW_KEY) + ": " + CanonicalJson.write(moved);
    String t = line.strip();
    if (t.startsWith("{") && t.endsWith("}")) {
      String body = t.substring(1, t.length() - 1);
      return "{" + body + (body.isBlank() ? "" : ", ") + pair + "}";
    }
    return line + " {" + pair + "}";
  }
}
