package io.sf2loki.otlp;

import java.io.IOException;
import java.util.List;

/**
 * Proves that the OTLP endpoint answers the configured URL with the configured credentials, without
 * writing a single record: it posts an {@code ExportLogsServiceRequest} of no resource logs, in the
 * configured encoding, through the sink's own HTTP client (TLS, proxy, headers). OTLP receivers
 * authenticate and answer such a request like any other. Used by {@code doctor}.
 */
public final class OtlpReachability {

  private OtlpReachability() {}

  /**
   * What the endpoint answered.
   *
   * @param status the HTTP status
   * @param body the error text (a {@code google.rpc.Status} message or the body), empty on success
   */
  public record Answer(int status, String body) {

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
    OtlpEncoder encoder =
        new OtlpEncoder(
            new LogRecordMapping(config),
            config.encoding(),
            config.gzip(),
            config.gzipLevel(),
            OtlpSink.version());
    try (OtlpHttpTransport transport = new OtlpHttpTransport(config, OtlpSink.userAgent())) {
      OtlpHttpTransport.Response r = transport.send(encoder.encode(List.of(), 0));
      String text = r.status() < 300 ? "" : OtlpAnswers.errorText(r.contentType(), r.body());
      return new Answer(r.status(), text);
    }
  }
}
