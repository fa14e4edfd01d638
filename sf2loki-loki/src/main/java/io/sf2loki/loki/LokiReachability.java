package io.sf2loki.loki;

import java.io.IOException;
import java.util.List;

/**
 * Proves that Loki answers the configured push URL with the configured tenant and credentials,
 * without writing a single log line: it pushes a request of zero streams, in the configured
 * encoding, through the sink's own HTTP client (TLS, proxy, auth and tenant headers). Loki
 * authenticates and routes such a request like any other and answers 204 without storing anything.
 * Used by {@code doctor}.
 */
public final class LokiReachability {

  private LokiReachability() {}

  /**
   * What Loki answered.
   *
   * @param status the HTTP status
   * @param body the response body (bounded; empty on success)
   */
  public record Answer(int status, String body) {

    /** True on any 2xx. */
    public boolean accepted() {
      return status >= 200 && status < 300;
    }
  }

  /**
   * Sends one empty push.
   *
   * @throws IOException transport errors and timeouts (never carrying credentials)
   * @throws InterruptedException when interrupted before a connection was leased
   */
  public static Answer emptyPush(LokiSinkConfig config) throws IOException, InterruptedException {
    EncodedBody body = LokiEncoder.of(config.encoding(), config.gzip()).encode(List.of());
    try (LokiHttpTransport transport =
        new LokiHttpTransport(config, LokiSink.Builder.defaultUserAgent())) {
      LokiHttpTransport.Response response = transport.send(body);
      return new Answer(response.status(), response.body());
    }
  }
}
