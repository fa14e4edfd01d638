package io.sf2loki.spi;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a {@link CoordinatorProvider.Factory#rosterInspector roster inspector} saw: the replicas a
 * multi-org deployment's shard balance counts, each with the expiry of its last heartbeat.
 *
 * @param location the roster's path or {@code namespace/name}
 * @param members each replica's identity and expiry, sorted by identity; empty when the roster is
 *     absent or unreadable
 * @param detail why it could not be read, or empty
 */
public record RosterInfo(String location, Map<String, Instant> members, Optional<String> detail) {

  public RosterInfo {
    Objects.requireNonNull(location, "location");
    members = java.util.Collections.unmodifiableMap(new TreeMap<>(members));
    Objects.requireNonNull(detail, "detail");
  }

  /** Reads the roster once, without joining it. Never throws: errors are a {@link #detail()}. */
  @FunctionalInterface
  public interface Inspector {
    RosterInfo inspect();
  }
}
