package io.sf2loki.testkit.loki;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One stream of a push request as it arrived on the wire.
 *
 * @param labels the stream's label set, parsed from the selector (protobuf) or the object (JSON)
 * @param entries the entries in wire order
 */
public record DecodedStream(Map<String, String> labels, List<DecodedEntry> entries) {

  public DecodedStream {
    labels = Collections.unmodifiableMap(new TreeMap<>(labels));
    entries = List.copyOf(entries);
  }
}
