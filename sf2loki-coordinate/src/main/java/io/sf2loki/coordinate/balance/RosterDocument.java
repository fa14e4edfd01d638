package io.sf2loki.coordinate.balance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The roster's content: {@code {"<replica>": "<expiry, ISO-8601 UTC>", ...}}, the same JSON in the
 * {@code file_lease} roster file and in the {@code sf2loki.io/roster} annotation of the {@code
 * k8s_lease} roster Lease.
 *
 * @param members each replica's identity and the expiry of its last heartbeat
 */
public record RosterDocument(Map<String, Instant> members) {

  /** No replica. */
  public static final RosterDocument EMPTY = new RosterDocument(Map.of());

  private static final ObjectMapper JSON = new ObjectMapper();

  public RosterDocument {
    members = Map.copyOf(members);
  }

  /** Parses {@code text}; {@code location} names the roster in the error. */
  public static RosterDocument parse(String text, String location) throws RosterException {
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new RosterException(location, "not JSON", true, null);
    }
    if (root == null || !root.isObject()) {
      throw new RosterException(location, "not a JSON object", true, null);
    }
    Map<String, Instant> members = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      if (!e.getValue().isTextual()) {
        throw new RosterException(
            location, "the entry of " + e.getKey() + " is not an ISO-8601 string", true, null);
      }
      try {
        members.put(e.getKey(), Instant.parse(e.getValue().textValue()));
      } catch (DateTimeParseException ex) {
        throw new RosterException(
            location, "the entry of " + e.getKey() + " is not an ISO-8601 time", true, null);
      }
    }
    return new RosterDocument(members);
  }

  /** Parses UTF-8 {@code bytes}. */
  public static RosterDocument parse(byte[] bytes, String location) throws RosterException {
    return parse(new String(bytes, StandardCharsets.UTF_8), location);
  }

  /** The members still alive at {@code now} (expiry after it). */
  public RosterDocument live(Instant now) {
    Map<String, Instant> live = new TreeMap<>();
    members.forEach(
        (replica, expiry) -> {
          if (expiry.isAfter(now)) {
            live.put(replica, expiry);
          }
        });
    return new RosterDocument(live);
  }

  /** This document with {@code replica}'s entry set to {@code expiresAt}. */
  public RosterDocument with(String replica, Instant expiresAt) {
    Map<String, Instant> next = new TreeMap<>(members);
    next.put(Objects.requireNonNull(replica, "replica"), expiresAt);
    return new RosterDocument(next);
  }

  /** This document without {@code replica}. */
  public RosterDocument without(String replica) {
    Map<String, Instant> next = new TreeMap<>(members);
    next.remove(replica);
    return new RosterDocument(next);
  }

  /** The JSON form, members sorted by identity. */
  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    new TreeMap<>(members).forEach((replica, expiry) -> root.put(replica, expiry.toString()));
    return root.toString();
  }
}
