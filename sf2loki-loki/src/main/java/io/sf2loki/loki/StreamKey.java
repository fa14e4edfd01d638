package io.sf2loki.loki;

import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;

/**
 * The Loki stream an entry lands in, which Loki's time windows are kept per. Pushed to Loki's push
 * API the stream is the entry's label set ({@link #LABELS}); exported over OTLP to a Loki it is
 * what Loki's {@code otlp_config} indexes of the record's attributes, which the OTLP sink computes.
 */
@FunctionalInterface
interface StreamKey {

  /** The stream of a pushed entry: its label set as it is. */
  StreamKey LABELS = (labels, metadata) -> labels;

  /** The stream of an entry with these labels and structured metadata. */
  StringMap of(StringMap labels, StringMap metadata);

  /** The stream of {@code e}. */
  default StringMap of(LogEntry e) {
    return of(e.labels(), e.metadata());
  }
}
