package io.sf2loki.testkit.loki;

import java.util.Map;
import java.util.TreeMap;

/**
 * One entry as it arrived on the wire.
 *
 * @param timestampNanos nanoseconds since the Unix epoch
 * @param line the log line
 * @param metadata structured metadata, in wire order
 */
public record DecodedEntry(long timestampNanos, String line, Map<String, String> metadata) {

  public DecodedEntry {
    metadata = java.util.Collections.unmodifiableMap(new TreeMap<>(metadata));
  }
}
