package io.sf2loki.loki;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.loki.WindowPlan.Action;
import io.sf2loki.loki.WindowPlan.Placement;
import io.sf2loki.loki.WindowPlan.Reason;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The lines of a {@link ReplayJournal} (its class comment shows them) and the record identity they
 * name. Stateless.
 */
final class JournalLines {

  private static final ObjectMapper JSON = new ObjectMapper();

  private JournalLines() {}

  /** Where a pinned record goes when the sink moved it: all of it but the line, which is R's. */
  record Moved(StringMap labels, long timestamp, StringMap metadata, Reason reason, Action action) {

    static Moved of(Placement p) {
      LogEntry placed = p.placed();
      return new Moved(
          placed.labels(), placed.timestampNanos(), placed.metadata(), p.reason(), p.action());
    }

    /** {@code original} placed here, as the sink placed it. */
    Placement placement(LogEntry original) {
      LogEntry placed =
          LogEntry.of(timestamp, labels, original.line(), metadata, original.checkpoint());
      return new Placement(original, placed, reason, action);
    }
  }

  /** One line read back. */
  sealed interface Line permits Pushing, Stored, Released {}

  /** {@code record} is about to be pushed: as it is, or {@code moved}. */
  record Pushing(String record, Optional<Moved> moved) implements Line {}

  /** Loki accepted a push of {@code record}. */
  record Stored(String record) implements Line {}

  /** Loki refused {@code record}'s placement in a push whose answer was read. */
  record Released(String record) implements Line {}

  static String pushing(String record, Optional<Moved> moved, Instant time) {
    ObjectNode n = JSON.createObjectNode();
    n.put("pushing", record);
    n.put("time", time.toString());
    if (moved.isPresent()) {
      Moved m = moved.get();
      n.set("labels", JSON.valueToTree(new TreeMap<>(m.labels())));
      n.put("timestamp", Long.toString(m.timestamp()));
      n.set("structured_metadata", JSON.valueToTree(new TreeMap<>(m.metadata())));
      n.put("reason", m.reason().tag);
      n.put("action", m.action().tag);
    }
    return n.toString();
  }

  static String stored(String record, Instant time) {
    return mark("stored", record, time);
  }

  static String released(String record, Instant time) {
    return mark("released", record, time);
  }

  private static String mark(String kind, String record, Instant time) {
    ObjectNode n = JSON.createObjectNode();
    n.put(kind, record);
    n.put("time", time.toString());
    return n.toString();
  }

  /**
   * Reads one line.
   *
   * @throws IllegalArgumentException when it is not a line {@link JournalLines} writes
   */
  static Line parse(String line) {
    JsonNode n;
    try {
      n = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON", e);
    }
    if (n != null && n.path("pushing").isTextual()) {
      String record = n.get("pushing").asText();
      return new Pushing(record, n.has("labels") ? Optional.of(moved(n)) : Optional.empty());
    }
    if (n != null && n.path("stored").isTextual()) {
      return new Stored(n.get("stored").asText());
    }
    if (n != null && n.path("released").isTextual()) {
      return new Released(n.get("released").asText());
    }
    throw new IllegalArgumentException("no pushing, stored or released record");
  }

  private static Moved moved(JsonNode n) {
    long timestamp = Long.parseLong(n.path("timestamp").asText());
    if (timestamp < 0) {
      throw new IllegalArgumentException("timestamp is negative");
    }
    return new Moved(
        StringMap.of(strings(n.get("labels"))),
        timestamp,
        StringMap.of(strings(n.get("structured_metadata"))),
        byTag(Reason.values(), n.path("reason").asText(), r -> r.tag),
        byTag(Action.values(), n.path("action").asText(), a -> a.tag));
  }

  private static Map<String, String> strings(JsonNode object) {
    if (object == null || !object.isObject()) {
      throw new IllegalArgumentException("labels or structured_metadata is not an object");
    }
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, JsonNode> m : object.properties()) {
      if (!m.getValue().isTextual()) {
        throw new IllegalArgumentException(m.getKey() + " is not a string");
      }
      out.put(m.getKey(), m.getValue().asText());
    }
    return out;
  }

  private static <T> T byTag(T[] values, String tag, Function<T, String> tagOf) {
    for (T v : values) {
      if (tagOf.apply(v).equals(tag)) {
        return v;
      }
    }
    throw new IllegalArgumentException("unknown reason or action " + tag);
  }

  /** A record's identity: SHA-256 of its labels, timestamp, line and metadata, length-prefixed. */
  static String identity(LogEntry e) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException ex) {
      throw new IllegalStateException("every JVM has SHA-256", ex);
    }
    update(sha, e.labels());
    sha.update(ByteBuffer.allocate(Long.BYTES).putLong(0, e.timestampNanos()));
    update(sha, e.line());
    update(sha, e.metadata());
    return HexFormat.of().formatHex(sha.digest());
  }

  private static void update(MessageDigest sha, StringMap map) {
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(0, map.size()));
    for (int i = 0; i < map.size(); i++) {
      update(sha, map.keyAt(i));
      update(sha, map.valueAt(i));
    }
  }

  private static void update(MessageDigest sha, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(0, b.length));
    sha.update(b);
  }
}
