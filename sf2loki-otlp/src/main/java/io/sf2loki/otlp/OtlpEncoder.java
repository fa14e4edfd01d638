package io.sf2loki.otlp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.resource.v1.Resource;
import io.sf2loki.model.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Encodes entries as one {@code ExportLogsServiceRequest}: protobuf with the official {@code
 * opentelemetry-proto} classes, or the OTLP/HTTP JSON mapping (lowerCamelCase keys, hex trace ids,
 * 64-bit integers as strings, enums as numbers); compressed as configured ({@link Codecs}). One
 * {@code ResourceLogs} per resource ({@link LogRecordMapping}), one scope ({@code sf2loki}) in
 * each. Thread-safe.
 */
final class OtlpEncoder {

  /** The instrumentation scope every record is reported under. */
  static final String SCOPE = "sf2loki";

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * One encoded request.
   *
   * @param bytes the body as sent
   * @param contentType its {@code Content-Type}
   * @param contentEncoding {@code gzip}, {@code zstd} or {@code lz4}, when compressed
   */
  record Body(byte[] bytes, String contentType, Optional<String> contentEncoding) {}

  private final LogRecordMapping mapping;
  private final OtlpSinkConfig.Encoding encoding;
  private final OtlpSinkConfig.Compression compression;
  private final int level;
  private final String version;

  OtlpEncoder(
      LogRecordMapping mapping,
      OtlpSinkConfig.Encoding encoding,
      OtlpSinkConfig.Compression compression,
      int level,
      String version) {
    this.mapping = mapping;
    this.encoding = encoding;
    this.compression = compression;
    this.level = level;
    this.version = version;
  }

  /**
   * Encodes {@code entries}.
   *
   * @param observedNanos the records' {@code observed_time_unix_nano}: when sf2loki exported them
   */
  Body encode(List<LogEntry> entries, long observedNanos) throws IOException {
    byte[] raw;
    if (encoding == OtlpSinkConfig.Encoding.JSON) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(256 + entries.size() * 1536);
      writeJson(entries, observedNanos, out);
      raw = out.toByteArray();
    } else {
      // Serialised once into an array of the exact size, not streamed through gzip field by
      // field: the compression below then runs over the whole body in one pass.
      raw = request(entries, observedNanos).toByteArray();
    }
    return new Body(
        Codecs.compress(compression, raw, level),
        encoding.contentType,
        compression.contentEncoding());
  }

  /** The request as the official classes' message. */
  ExportLogsServiceRequest request(List<LogEntry> entries, long observedNanos) {
    ExportLogsServiceRequest.Builder request = ExportLogsServiceRequest.newBuilder();
    InstrumentationScope scope =
        InstrumentationScope.newBuilder().setName(SCOPE).setVersion(version).build();
    for (Map.Entry<Map<String, String>, List<LogEntry>> group :
        mapping.byResource(entries).entrySet()) {
      Resource.Builder resource = Resource.newBuilder();
      group.getKey().forEach((k, v) -> resource.addAttributes(attribute(k, v)));
      ScopeLogs.Builder scopeLogs = ScopeLogs.newBuilder().setScope(scope);
      for (LogEntry e : group.getValue()) {
        scopeLogs.addLogRecords(record(e, observedNanos));
      }
      request.addResourceLogs(
          ResourceLogs.newBuilder().setResource(resource).addScopeLogs(scopeLogs));
    }
    return request.build();
  }

  private static LogRecord record(LogEntry e, long observedNanos) {
    LogRecord.Builder r =
        LogRecord.newBuilder()
            .setTimeUnixNano(e.timestampNanos())
            .setObservedTimeUnixNano(observedNanos)
            .setBody(AnyValue.newBuilder().setStringValue(e.line()));
    Optional<String> level = LogRecordMapping.level(e);
    if (level.isPresent()) {
      r.setSeverityText(level.get());
      SeverityNumber n = SeverityNumber.forNumber(LogRecordMapping.severityNumber(level.get()));
      r.setSeverityNumber(n == null ? SeverityNumber.SEVERITY_NUMBER_UNSPECIFIED : n);
    }
    for (Map.Entry<String, String> a : LogRecordMapping.attributes(e)) {
      r.addAttributes(attribute(a.getKey(), a.getValue()));
    }
    LogRecordMapping.traceId(e).ifPresent(id -> r.setTraceId(ByteString.copyFrom(id)));
    return r.build();
  }

  private static KeyValue attribute(String key, String value) {
    return KeyValue.newBuilder()
        .setKey(key)
        .setValue(AnyValue.newBuilder().setStringValue(value))
        .build();
  }

  private void writeJson(List<LogEntry> entries, long observedNanos, OutputStream out)
      throws IOException {
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeArrayFieldStart("resourceLogs");
      for (Map.Entry<Map<String, String>, List<LogEntry>> group :
          mapping.byResource(entries).entrySet()) {
        g.writeStartObject();
        g.writeObjectFieldStart("resource");
        g.writeArrayFieldStart("attributes");
        for (Map.Entry<String, String> a : group.getKey().entrySet()) {
          jsonAttribute(g, a.getKey(), a.getValue());
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeArrayFieldStart("scopeLogs");
        g.writeStartObject();
        g.writeObjectFieldStart("scope");
        g.writeStringField("name", SCOPE);
        g.writeStringField("version", version);
        g.writeEndObject();
        g.writeArrayFieldStart("logRecords");
        for (LogEntry e : group.getValue()) {
          jsonRecord(g, e, observedNanos);
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
  }

  private static void jsonRecord(JsonGenerator g, LogEntry e, long observedNanos)
      throws IOException {
    g.writeStartObject();
    // fixed64 in the JSON mapping: a decimal string, so no JSON reader rounds it to a double
    g.writeStringField("timeUnixNano", Long.toUnsignedString(e.timestampNanos()));
    g.writeStringField("observedTimeUnixNano", Long.toUnsignedString(observedNanos));
    Optional<String> level = LogRecordMapping.level(e);
    if (level.isPresent()) {
      int n = LogRecordMapping.severityNumber(level.get());
      if (n != 0) {
        g.writeNumberField("severityNumber", n);
      }
      g.writeStringField("severityText", level.get());
    }
    g.writeObjectFieldStart("body");
    g.writeStringField("stringValue", e.line());
    g.writeEndObject();
    List<Map.Entry<String, String>> attributes = LogRecordMapping.attributes(e);
    if (!attributes.isEmpty()) {
      g.writeArrayFieldStart("attributes");
      for (Map.Entry<String, String> a : attributes) {
        jsonAttribute(g, a.getKey(), a.getValue());
      }
      g.writeEndArray();
    }
    Optional<byte[]> traceId = LogRecordMapping.traceId(e);
    if (traceId.isPresent()) {
      g.writeStringField("traceId", HexFormat.of().formatHex(traceId.get()));
    }
    g.writeEndObject();
  }

  private static void jsonAttribute(JsonGenerator g, String key, String value) throws IOException {
    g.writeStartObject();
    g.writeStringField("key", key);
    g.writeObjectFieldStart("value");
    g.writeStringField("stringValue", value);
    g.writeEndObject();
    g.writeEndObject();
  }
}
