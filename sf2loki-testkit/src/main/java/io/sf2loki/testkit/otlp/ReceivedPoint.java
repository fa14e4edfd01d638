package io.sf2loki.testkit.otlp;

import java.time.Instant;
import java.util.Map;

/**
 * One data point of an accepted export.
 *
 * @param metric the metric's name, as sent
 * @param type the metric's data type: {@code gauge}, {@code sum}, {@code histogram}, {@code
 *     exponential_histogram} or {@code summary}
 * @param resource the export's resource attributes ({@code service.name}, ...), values as strings
 * @param attributes the point's attributes (Micrometer's tags)
 * @param value the point's value; for a histogram or summary, its count
 * @param time the point's timestamp
 */
public record ReceivedPoint(
    String metric,
    String type,
    Map<String, String> resource,
    Map<String, String> attributes,
    double value,
    Instant time) {

  /** Copies the maps. */
  public ReceivedPoint {
    resource = Map.copyOf(resource);
    attributes = Map.copyOf(attributes);
  }
}
