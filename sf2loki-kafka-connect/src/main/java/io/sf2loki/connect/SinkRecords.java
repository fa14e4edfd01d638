package io.sf2loki.connect;

import io.sf2loki.model.LogEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Rebuilds the Loki entry of a record the source connector wrote ({@link EntryRecords}): from the
 * struct of a schema-aware converter, the map of a schemaless one (JSON with {@code
 * schemas.enable=false}), or the JSON text itself ({@code sf2loki.record.format=json} read through
 * {@code ByteArrayConverter} or {@code StringConverter}). A checkpoint-only record (null value) has
 * no entry.
 */
final class SinkRecords {

  private SinkRecords() {}

  /**
   * @throws DataException naming the record when its value is not an sf2loki entry
   */
  static Optional<LogEntry> entry(SinkRecord record) {
    Object value = record.value();
    if (value == null) {
      return Optional.empty();
    }
    try {
      if (value instanceof byte[] json) {
        value = EntryJson.read(json);
      } else if (value instanceof String json) {
        value = EntryJson.read(json.getBytes(StandardCharsets.UTF_8));
      }
      if (value instanceof Struct struct) {
        return Optional.of(
            LogEntry.of(
                struct.getInt64("timestamp_ns"),
                strings(struct.getMap("labels")),
                struct.getString("line"),
                strings(struct.getMap("structured_metadata")),
                Optional.empty()));
      }
      if (value instanceof Map<?, ?> map) {
        return Optional.of(
            LogEntry.of(
                ((Number) map.get("timestamp_ns")).longValue(),
                strings((Map<?, ?>) map.get("labels")),
                (String) map.get("line"),
                strings(
                    map.get("structured_metadata") == null
                        ? Map.of()
                        : (Map<?, ?>) map.get("structured_metadata")),
                Optional.empty()));
      }
    } catch (IOException | RuntimeException e) {
      throw new DataException(
          "record " + where(record) + " is not an sf2loki entry: " + e.getMessage(), e);
    }
    throw new DataException(
        "record "
            + where(record)
            + " is not an sf2loki entry: its value is a "
            + value.getClass().getSimpleName());
  }

  private static Map<String, String> strings(Map<?, ?> map) {
    Map<String, String> out = new TreeMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
    return out;
  }

  static String where(SinkRecord record) {
    return record.topic() + "-" + record.kafkaPartition() + "@" + record.kafkaOffset();
  }
}
