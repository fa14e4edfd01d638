package io.sf2loki.source.eventlogfile;

import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.shape.Shaped;
import io.sf2loki.shape.Shaper;
import io.sf2loki.shape.TypeShaping;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns CSV rows into Loki entries through the shared {@link Shaper}: transforms, sampling by
 * {@code REQUEST_ID} (else the canonical JSON of the transformed row), promoted labels, structured
 * metadata and {@code level}, the canonical JSON line. The time is {@code timestamp_column}, then
 * {@code TIMESTAMP}, then the file's CreatedDate (the shaper's counted, clamped fallback).
 */
final class ElfEntries {

  /** The sampling key column. */
  static final String REQUEST_ID = "REQUEST_ID";

  private static final Shaper.SampleKey SAMPLE_KEY =
      (original, transformed) -> {
        Object id = original.get(REQUEST_ID);
        return id instanceof String s && !s.isBlank() ? s : CanonicalJson.write(transformed);
      };

  private final Shaper shaper;
  private final List<String> timeFields;

  ElfEntries(Shaper shaper, String timestampColumn) {
    this.shaper = shaper;
    this.timeFields = List.of(timestampColumn, "TIMESTAMP").stream().distinct().toList();
  }

  /**
   * The shaped {@code row}, or empty when a transform dropped the row or sampling left it out (both
   * counted by the shaper). The caller picks the checkpoint the entry carries ({@link
   * Shaped.Kept#entry}), since only the file's last kept row carries the advanced one.
   */
  Optional<Shaped.Kept> row(TypeShaping type, Map<String, String> row, ElfFile file) {
    Shaped shaped =
        shaper.shape(
            type,
            new LinkedHashMap<String, Object>(row),
            SAMPLE_KEY,
            timeFields,
            Optional.of(file.created()));
    return shaped instanceof Shaped.Kept kept ? Optional.of(kept) : Optional.empty();
  }
}
