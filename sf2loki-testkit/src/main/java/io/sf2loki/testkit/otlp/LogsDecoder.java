package io.sf2loki.testkit.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An {@code ExportLogsServiceRequest} from its protobuf or its OTLP/HTTP JSON mapping, into the
 * official {@code opentelemetry-proto} message, and from there into {@link ReceivedLogRecord}s. The
 * JSON reader is strict where the mapping is: {@code traceId}/{@code spanId} are hex, 64-bit
 * integers are decimal strings (numbers are accepted, as the mapping allows), keys lowerCamelCase.
 */
final class LogsDecoder {

  private static final ObjectMapper JSON = new ObjectMapper();

  private LogsDecoder() {}

  static ExportLogsServiceRequest protobuf(byte[] body) throws IOException {
    return ExportLogsServiceRequest.parseFrom(body);
  }

  static ExportLogsServiceRequest json(byte[] body) throws IOException {
    JsonNode root = JSON.readTree(body);
    if (root == null || !root.isObject()) {
      throw new IOException("not a JSON object");
    }
    ExportLogsServiceRequest.Builder request = ExportLogsServiceRequest.newBuilder();
    for (JsonNode rl : root.path("resourceLogs")) {
      ResourceLogs.Builder resourceLogs = ResourceLogs.newBuilder();
      Resource.Builder resource = Resource.newBuilder();
      for (JsonNode a : rl.path("resource").path("attributes")) {
        resource.addAttributes(keyValue(a));
      }
      resourceLogs.setResource(resource);
      for (JsonNode sl : rl.path("scopeLogs")) {
        ScopeLogs.Builder scopeLogs = ScopeLogs.newBuilder();
        JsonNode scope = sl.path("scope");
        scopeLogs.setScope(
            InstrumentationScope.newBuilder()
                .setName(scope.path("name").asText(""))
                .setVersion(scope.path("version").asText("")));
        for (JsonNode lr : sl.path("logRecords")) {
          scopeLogs.addLogRecords(record(lr));
        }
        resourceLogs.addScopeLogs(scopeLogs);
      }
      request.addResourceLogs(resourceLogs);
    }
    return request.build();
  }

  private static LogRecord record(JsonNode lr) throws IOException {
    LogRecord.Builder r = LogRecord.newBuilder();
    r.setTimeUnixNano(uint64(lr, "timeUnixNano"));
    r.setObservedTimeUnixNano(uint64(lr, "observedTimeUnixNano"));
    r.setSeverityNumberValue(lr.path("severityNumber").asInt(0));
    r.setSeverityText(lr.path("severityText").asText(""));
    if (lr.has("body")) {
      r.setBody(anyValue(lr.get("body")));
    }
    for (JsonNode a : lr.path("attributes")) {
      r.addAttributes(keyValue(a));
    }
    String traceId = lr.path("traceId").asText("");
    if (!traceId.isEmpty()) {
      try {
        r.setTraceId(ByteString.copyFrom(HexFormat.of().parseHex(traceId)));
      } catch (IllegalArgumentException e) {
        throw new IOException("traceId is not hex: " + traceId, e);
      }
    }
    return r.build();
  }

  private static long uint64(JsonNode parent, String field) throws IOException {
    JsonNode v = parent.get(field);
    if (v == null || v.isNull()) {
      return 0;
    }
    try {
      return v.isTextual() ? Long.parseUnsignedLong(v.asText()) : v.longValue();
    } catch (NumberFormatException e) {
      throw new IOException(field + " is not a 64-bit integer: " + v, e);
    }
  }

  private static KeyValue keyValue(JsonNode a) throws IOException {
    return KeyValue.newBuilder()
        .setKey(a.path("key").asText(""))
        .setValue(anyValue(a.path("value")))
        .build();
  }

  private static AnyValue anyValue(JsonNode v) throws IOException {
    AnyValue.Builder b = AnyValue.newBuilder();
    if (v.has("stringValue")) {
      b.setStringValue(v.get("stringValue").asText());
    } else if (v.has("boolValue")) {
      b.setBoolValue(v.get("boolValue").asBoolean());
    } else if (v.has("intValue")) {
      b.setIntValue(uint64(v, "intValue"));
    } else if (v.has("doubleValue")) {
      b.setDoubleValue(v.get("doubleValue").asDouble());
    } else if (v.size() > 0) {
      throw new IOException("unsupported AnyValue " + v);
    }
    return b.build();
  }

  /** Every record of {@code request}, with what {@code rules} make of it. */
  static List<ReceivedLogRecord> records(ExportLogsServiceRequest request, LokiOtlpRules rules) {
    List<ReceivedLogRecord> out = new ArrayList<>();
    for (ResourceLogs rl : request.getResourceLogsList()) {
      Map<String, String> resource =
          MetricsDecoder.attributes(rl.getResource().getAttributesList());
      for (ScopeLogs sl : rl.getScopeLogsList()) {
        Map<String, String> scope = MetricsDecoder.attributes(sl.getScope().getAttributesList());
        for (LogRecord r : sl.getLogRecordsList()) {
          Map<String, String> attributes = MetricsDecoder.attributes(r.getAttributesList());
          String traceId =
              r.getTraceId().isEmpty()
                  ? ""
                  : HexFormat.of().formatHex(r.getTraceId().toByteArray());
          out.add(
              new ReceivedLogRecord(
                  resource,
                  sl.getScope().getName(),
                  attributes,
                  body(r.getBody()),
                  r.getTimeUnixNano(),
                  r.getObservedTimeUnixNano(),
                  r.getSeverityNumberValue(),
                  r.getSeverityText(),
                  traceId.isEmpty() ? Optional.empty() : Optional.of(traceId),
                  rules.labels(resource, attributes),
                  rules.metadata(resource, scope, attributes, r.getSeverityText(), traceId)));
        }
      }
    }
    return out;
  }

  private static String body(AnyValue v) {
    return v.getValueCase() == AnyValue.ValueCase.STRING_VALUE
        ? v.getStringValue()
        : MetricsDecoder.attributes(List.of(KeyValue.newBuilder().setKey("b").setValue(v).build()))
            .get("b");
  }

  /** Counts the records of a request without decoding them further. */
  static int count(ExportLogsServiceRequest request) {
    int n = 0;
    for (ResourceLogs rl : request.getResourceLogsList()) {
      for (ScopeLogs sl : rl.getScopeLogsList()) {
        n += sl.getLogRecordsCount();
      }
    }
    return n;
  }
}
