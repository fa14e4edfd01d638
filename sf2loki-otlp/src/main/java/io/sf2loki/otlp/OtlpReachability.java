package io.sf2loki.otlp;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Proves that the OTLP endpoint answers the configured URL with the configured credentials, without
 * writing a single record: it posts an {@code ExportLogsServiceRequest} of no resource logs, in the
 * configured encoding, through the sink's own HTTP client (TLS, proxy, headers). OTLP receivers
 * authenticate and answer such a request like any other. Used by {@code doctor}.
 *
 * <p>The export holds one resource with no records, not nothing: compressed with zstd, an empty
 * request is a few bytes that a Loki before 3.6, which parses them as they came, reads as valid
 * protobuf and accepts. A body of 256 bytes to 8 KiB makes a zstd frame whose misread hits a field
 * number 0, which every protobuf parser refuses (an LZ4 frame's first byte already does), so doctor
 * sees the refusal.
 */
public final class OtlpReachability {

  private OtlpReachability() {}

  /**
   * What the endpoint answered.
   *
   * @param status the HTTP status
   * @param body the error text (a {@code google.rpc.Status} message or the body), empty on success
   * @param codecRefused the endpoint does not decompress the configured compression (zstd, lz4)
   */
  public record Answer(int status, String body, boolean codecRefused) {

    /** True on any 2xx. */
    public boolean accepted() {
      return status >= 200 && status < 300;
    }
  }

  /**
   * Sends one empty export.
   *
   * @throws IOException transport errors and timeouts (never carrying credentials)
   * @throws InterruptedException when interrupted before a connection was leased
   */
  public static Answer emptyExport(OtlpSinkConfig config) throws IOException, InterruptedException {
    OtlpEncoder.Body probe =
        new OtlpEncoder.Body(
            Codecs.compress(config.compression(), probe(config), config.compressionLevel()),
            config.encoding().contentType,
            config.compression().contentEncoding());
    try (OtlpHttpTransport transport = new OtlpHttpTransport(config, OtlpSink.userAgent())) {
      OtlpHttpTransport.Response r = transport.send(probe);
      String text = r.status() < 300 ? "" : OtlpAnswers.errorText(r.contentType(), r.body());
      boolean refused =
          r.status() == 400 && CodecRefusedException.refuses(config.compression(), text);
      return new Answer(r.status(), text, refused);
    }
  }

  /** Why gzip, and who accepts {@code compression}: for doctor's fix line. */
  public static String codecHint(OtlpSinkConfig.Compression compression) {
    return "use gzip (sink.otlp.compression = gzip); " + CodecRefusedException.hint(compression);
  }

  /**
   * One resource ({@code service.name = sf2loki}, {@code sf2loki.doctor} = 300 dots to size it)
   * with no scope and no record, serialised.
   */
  static byte[] probe(OtlpSinkConfig config) {
    String pad = ".".repeat(300);
    if (config.encoding() == OtlpSinkConfig.Encoding.JSON) {
      return ("{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
              + "\"value\":{\"stringValue\":\"sf2loki\"}},{\"key\":\"sf2loki.doctor\","
              + "\"value\":{\"stringValue\":\""
              + pad
              + "\"}}]}}]}")
          .getBytes(StandardCharsets.UTF_8);
    }
    Resource.Builder resource =
        Resource.newBuilder()
            .addAttributes(attribute("service.name", "sf2loki"))
            .addAttributes(attribute("sf2loki.doctor", pad));
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().setResource(resource))
        .build()
        .toByteArray();
  }

  private static KeyValue attribute(String key, String value) {
    return KeyValue.newBuilder()
        .setKey(key)
        .setValue(AnyValue.newBuilder().setStringValue(value))
        .build();
  }
}
