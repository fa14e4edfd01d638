package io.sf2loki.shape;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The per-event-type part of shaping.
 *
 * @param eventType the {@code event_type} label (object name, ELF type, topic basename, apexlog)
 * @param metadataFields overrides the section's {@code structured_metadata_fields} when present
 *     ({@code []} suppresses them)
 * @param labels payload fields promoted to stream labels (validated, guarded at run time)
 * @param sampleRate the share of entries kept, in (0, 1]
 */
public record TypeShaping(
    String eventType,
    Optional<List<String>> metadataFields,
    List<String> labels,
    double sampleRate) {

  public TypeShaping {
    Objects.requireNonNull(eventType, "eventType");
    metadataFields = metadataFields.map(List::copyOf);
    labels = List.copyOf(labels);
    if (!(sampleRate > 0 && sampleRate <= 1)) {
      throw new IllegalArgumentException("sample rate must be in (0, 1]: " + sampleRate);
    }
  }

  /** A type with no overrides, no promoted labels and no sampling. */
  public static TypeShaping of(String eventType) {
    return new TypeShaping(eventType, Optional.empty(), List.of(), 1.0);
  }
}
