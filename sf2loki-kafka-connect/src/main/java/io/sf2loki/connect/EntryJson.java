package io.sf2loki.connect;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The record value of {@code sf2loki.record.format=json}: the documented entry ({@link
 * EntryRecords#VALUE}'s fields, in its order) as UTF-8 JSON, the text {@code JsonConverter} with
 * {@code schemas.enable=false} writes for the struct, with labels and metadata in key order. The
 * source's own threads write it, so the task thread only hands the bytes on ({@code
 * ByteArrayConverter}).
 */
final class EntryJson {

  private static final JsonFactory FACTORY = new JsonFactory();
  private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

  private EntryJson() {}

  /** The JSON of {@code entry}, a real entry (not checkpoint-only). */
  static byte[] write(LogEntry entry) {
    // the line dominates; the rest is about a hundred bytes
    ByteArrayOutputStream out = new ByteArrayOutputStream(entry.line().length() + 256);
    try (JsonGenerator json = FACTORY.createGenerator(out)) {
      json.writeStartObject();
      json.writeNumberField("timestamp_ns", entry.timestampNanos());
      json.writeFieldName("labels");
      object(json, entry.labels());
      json.writeFieldName("structured_metadata");
      object(json, entry.metadata());
      json.writeStringField("line", entry.line());
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return out.toByteArray();
  }

  private static void object(JsonGenerator json, StringMap map) throws IOException {
    json.writeStartObject();
    for (int i = 0; i < map.size(); i++) {
      json.writeStringField(map.keyAt(i), map.valueAt(i));
    }
    json.writeEndObject();
  }

  /**
   * The JSON object of {@code text}, as schemaless {@code JsonConverter} would read it.
   *
   * @throws IOException when it is not a JSON object
   */
  static Map<String, Object> read(byte[] text) throws IOException {
    return MAPPER.readValue(text, OBJECT);
  }
}
