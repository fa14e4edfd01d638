package io.sf2loki.testkit.loki;

/**
 * Counters served by {@code GET /testkit/stats}.
 *
 * @param streams distinct streams that received at least one push
 * @param entries stored entries
 * @param bytes stored line bytes (UTF-8)
 * @param duplicates exact duplicates dropped (same stream, timestamp and line)
 * @param rejected entries rejected by a rule or an entry fault
 */
public record FakeLokiStats(
    long streams, long entries, long bytes, long duplicates, long rejected) {}
