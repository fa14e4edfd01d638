package io.sf2loki.testkit.loki;

/**
 * Which Grafana Loki the fake plays, for the behaviours that changed with Loki 3 (platforms-2026.md
 * §4). The limits ({@link LokiLimits}) and a blocked tenant's 260 apply in either.
 */
public enum LokiVersion {
  /** Loki 2.9: labels and structured metadata are stored as pushed. */
  V2_9,
  /**
   * Loki 3.x defaults: {@code discover_service_name} adds {@code service_name} to a stream without
   * one (from the first of {@code service}, {@code app}, ..., {@code job}; else {@code
   * unknown_service}), {@code discover_log_levels} adds {@code detected_level} structured metadata,
   * and automatic stream sharding adds {@code __stream_shard__} to a stream pushed faster than the
   * desired rate.
   */
  V3
}
