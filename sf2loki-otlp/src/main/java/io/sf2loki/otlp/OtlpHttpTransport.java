package io.sf2loki.otlp;

import io.sf2loki.loki.HttpSinkSupport;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;

/**
 * The HTTP client of the OTLP sink, set up as the Loki sink's is: Apache HttpClient 5 classic,
 * pooled, connect and socket timeouts, an optional proxy, TLS trusting the JVM store plus an
 * optional CA file, no automatic retries, redirects or decompression (the lane owns retries).
 * Thread-safe.
 */
final class OtlpHttpTransport implements AutoCloseable {

  // A partial success's error_message or a google.rpc.Status: kept whole up to this size.
  private static final int MAX_BODY = 64 * 1024;

  /**
   * What the endpoint answered.
   *
   * @param body the response body, at most 64 KiB
   */
  record Response(int status, Optional<String> retryAfter, String contentType, byte[] body) {}

  private final OtlpSinkConfig config;
  private final CloseableHttpClient client;
  private final Map<String, String> headers;

  OtlpHttpTransport(OtlpSinkConfig config, String userAgent) throws IOException {
    this.config = config;
    this.headers = headers(config);
    try {
      this.client =
          HttpSinkSupport.httpClient(
              config.caFile(),
              config.connectTimeout(),
              config.timeout(),
              config.proxy(),
              userAgent);
    } catch (IOException e) {
      throw new IOException("sink.otlp.ca_file: " + e.getMessage(), e);
    }
  }

  /**
   * The configured headers, then the auth and tenant headers as the Loki sink sends them: Basic
   * with {@code tenant_id} as the user, or Bearer; X-Scope-OrgID alone, or alongside Authorization
   * when {@code send_tenant_header} is set.
   */
  static Map<String, String> headers(OtlpSinkConfig config) {
    Map<String, String> h = new LinkedHashMap<>(config.headers());
    h.putAll(
        HttpSinkSupport.authHeaders(
            config.tenantId(),
            config.authToken(),
            config.bearerToken(),
            config.sendTenantHeader()));
    return Map.copyOf(h);
  }

  /**
   * Sends one body.
   *
   * @throws IOException transport errors and timeouts (never carrying credentials)
   * @throws InterruptedException when the calling thread is interrupted before it has a connection
   */
  Response send(OtlpEncoder.Body body) throws IOException, InterruptedException {
    HttpPost post = new HttpPost(config.logsUrl());
    headers.forEach(post::setHeader);
    post.setEntity(
        new ByteArrayEntity(
            body.bytes(),
            ContentType.create(body.contentType()),
            body.contentEncoding().orElse(null)));
    try {
      return client.execute(
          post,
          response -> {
            HttpEntity entity = response.getEntity();
            byte[] bytes = new byte[0];
            String type = "";
            if (entity != null) {
              type = entity.getContentType() == null ? "" : entity.getContentType();
              try (InputStream in = entity.getContent()) {
                bytes = in.readNBytes(MAX_BODY);
              }
            }
            Header ra = response.getFirstHeader("Retry-After");
            return new Response(
                response.getCode(), Optional.ofNullable(ra).map(Header::getValue), type, bytes);
          });
    } catch (CancellationException e) {
      // The pool cancels the connection lease of an interrupted thread with this unchecked
      // exception: the interrupt of a run tearing down, not a crash of the lane.
      Thread.interrupted();
      InterruptedException interrupted =
          new InterruptedException("export interrupted while waiting for a connection");
      interrupted.initCause(e);
      throw interrupted;
    }
  }

  @Override
  public void close() {
    client.close(CloseMode.GRACEFUL);
  }
}
