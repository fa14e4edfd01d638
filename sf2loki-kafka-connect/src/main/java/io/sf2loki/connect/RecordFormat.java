package io.sf2loki.connect;

import java.util.Locale;

/**
 * How the source connector writes an entry's value ({@code sf2loki.record.format}): the {@code
 * io.sf2loki.LogEntry} struct, which the worker's value converter turns into bytes on the task
 * thread, or that entry already as JSON bytes, written on the sources' own threads for {@code
 * ByteArrayConverter}.
 */
enum RecordFormat {
  STRUCT,
  JSON;

  /** The configuration value: {@code struct} or {@code json}. */
  String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  static RecordFormat of(String key) {
    return valueOf(key.toUpperCase(Locale.ROOT));
  }
}
