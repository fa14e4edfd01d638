package io.sf2loki.testkit.loki;

import java.util.Map;

/**
 * An entry the fake stored, as {@code GET /testkit/entries} serves it.
 *
 * @param labels the stream labels
 * @param timestampNanos nanoseconds since the Unix epoch
 * @param line the log line
 * @param metadata structured metadata
 */
public record AcceptedEntry(
    Map<String, String> labels, long timestampNanos, String line, Map<String, String> metadata) {

  public AcceptedEntry {
    labels = Map.copyOf(labels);
    metadata = SortedPairs.copyOf(metadata); // sorted by name, not copied when already so
  }
}
