package io.sf2loki.otlp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.protobuf.CodedInputStream;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads OTLP/HTTP answers: the {@code ExportLogsServiceResponse} of a 2xx (its {@code
 * partial_success}) and the {@code google.rpc.Status} of a failure, each in protobuf or JSON as the
 * response's {@code Content-Type} says.
 */
final class OtlpAnswers {

  private static final JsonFactory JSON = new JsonFactory();

  // field 2, wire type 2 (length-delimited): google.rpc.Status.message
  private static final int STATUS_MESSAGE_TAG = 2 << 3 | 2;

  private OtlpAnswers() {}

  /**
   * What a 2xx said about the request's records.
   *
   * @param rejected {@code rejected_log_records}, 0 for a full success
   * @param message {@code error_message}, empty when none
   */
  record Outcome(long rejected, String message) {}

  /**
   * The outcome of a 2xx body. An empty body, or one that does not decode, is a full success: the
   * OTLP specification makes {@code partial_success} optional and a 2xx an acceptance.
   */
  static Outcome outcome(String contentType, byte[] body) {
    if (body.length == 0) {
      return new Outcome(0, "");
    }
    try {
      if (isJson(contentType)) {
        return jsonOutcome(body);
      }
      ExportLogsServiceResponse r = ExportLogsServiceResponse.parseFrom(body);
      return new Outcome(
          r.getPartialSuccess().getRejectedLogRecords(), r.getPartialSuccess().getErrorMessage());
    } catch (IOException | RuntimeException e) {
      return new Outcome(0, "");
    }
  }

  private static Outcome jsonOutcome(byte[] body) throws IOException {
    long rejected = 0;
    String message = "";
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return new Outcome(0, "");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if (!field.equals("partialSuccess") && !field.equals("partial_success")
            || p.currentToken() != JsonToken.START_OBJECT) {
          p.skipChildren();
          continue;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String inner = p.currentName();
          p.nextToken();
          switch (inner) {
            case "rejectedLogRecords", "rejected_log_records" ->
                rejected =
                    p.currentToken() == JsonToken.VALUE_STRING
                        ? Long.parseLong(p.getText())
                        : p.getLongValue();
            case "errorMessage", "error_message" -> message = p.getText();
            default -> p.skipChildren();
          }
        }
      }
    }
    return new Outcome(rejected, message);
  }

  /**
   * The text of a failure's body: a {@code google.rpc.Status}'s message (protobuf, also as {@code
   * application/octet-stream} as Loki sends it, or JSON), else the body as text when it is text,
   * else empty.
   */
  static String errorText(String contentType, byte[] body) {
    if (body.length == 0) {
      return "";
    }
    String type = contentType.toLowerCase(Locale.ROOT);
    // Loki's /otlp answers a failure with a protobuf Status as application/octet-stream.
    if (type.startsWith("application/x-protobuf")
        || type.startsWith("application/protobuf")
        || type.startsWith("application/octet-stream")) {
      return statusMessage(body);
    }
    if (isJson(contentType)) {
      try (JsonParser p = JSON.createParser(body)) {
        if (p.nextToken() == JsonToken.START_OBJECT) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("message") && p.currentToken() == JsonToken.VALUE_STRING) {
              return p.getText().strip();
            }
            p.skipChildren();
          }
        }
      } catch (IOException e) {
        // not the JSON it says it is: shown as text below
      }
    }
    return new String(body, StandardCharsets.UTF_8).strip();
  }

  /** Field 2 ({@code message}) of a {@code google.rpc.Status}, which opentelemetry-proto lacks. */
  private static String statusMessage(byte[] body) {
    try {
      CodedInputStream in = CodedInputStream.newInstance(body);
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (tag == STATUS_MESSAGE_TAG) {
          return in.readStringRequireUtf8().strip();
        }
        if (!in.skipField(tag)) {
          break;
        }
      }
    } catch (IOException e) {
      // not a Status: nothing readable to show
    }
    return "";
  }

  private static boolean isJson(String contentType) {
    return contentType.toLowerCase(Locale.ROOT).startsWith("application/json");
  }
}
