package io.sf2loki.loki;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;

/**
 * Loki's JSON push body, optionally gzip-compressed. Every value is the three-element form {@code
 * ["<ns>", "<line>", {structured metadata}]}; the timestamp is integer nanoseconds as a decimal
 * string, never via floating point.
 */
final class JsonEncoder implements LokiEncoder {

  private static final JsonFactory FACTORY = new JsonFactory();

  private final boolean gzip;

  JsonEncoder(boolean gzip) {
    this.gzip = gzip;
  }

  @Override
  public EncodedBody encode(List<LokiStream> streams) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(8192);
    try (OutputStream out = gzip ? new GZIPOutputStream(bytes, 8192) : bytes;
        JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartObject();
      g.writeArrayFieldStart("streams");
      for (LokiStream s : streams) {
        writeStream(g, s);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    return new EncodedBody(
        bytes.toByteArray(), "application/json", gzip ? Optional.of("gzip") : Optional.empty());
  }

  private static void writeStream(JsonGenerator g, LokiStream s) throws IOException {
    g.writeStartObject();
    g.writeObjectFieldStart("stream");
    writeMap(g, s.labels()); // StringMap: sorted by name
    g.writeEndObject();
    g.writeArrayFieldStart("values");
    for (LogEntry e : s.entries()) {
      g.writeStartArray();
      g.writeString(Long.toString(e.timestampNanos()));
      g.writeString(e.line());
      g.writeStartObject();
      writeMap(g, e.metadata()); // LogEntry keeps it sorted by name
      g.writeEndObject();
      g.writeEndArray();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void writeMap(JsonGenerator g, StringMap map) throws IOException {
    for (int i = 0; i < map.size(); i++) {
      g.writeStringField(map.keyAt(i), map.valueAt(i));
    }
  }
}
