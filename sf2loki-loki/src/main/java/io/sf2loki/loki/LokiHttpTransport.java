package io.sf2loki.loki;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.ParseException;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;

/**
 * The HTTP client dedicated to Loki: Apache HttpClient 5 classic, pooled (connections reused across
 * pushes and lanes), with connect and socket timeouts, an optional proxy, and TLS trusting the JVM
 * store plus an optional CA file. No automatic retries or redirects: the sink owns retry policy.
 * Thread-safe.
 */
final class LokiHttpTransport implements AutoCloseable {

  // Loki lists up to 10 rejected entries per stream and names the stream last; time-window
  // handling reads both, so the body is kept well past a few lines.
  private static final int MAX_ERROR_BODY = 64 * 1024;

  /** What Loki answered. */
  record Response(int status, Optional<String> retryAfter, String body) {}

  private final URI pushUri;
  private final CloseableHttpClient client;
  private final Map<String, String> headers;

  LokiHttpTransport(LokiSinkConfig config, String userAgent) throws IOException {
    this.pushUri = config.pushUrl();
    this.headers = authHeaders(config);
    this.client =
        SinkHttpClient.create(
            config.caFile(), config.connectTimeout(), config.timeout(), config.proxy(), userAgent);
  }

  /**
   * The auth and tenant headers of loki-push.md §5. Basic uses {@code tenant_id} as the user (may
   * be empty); X-Scope-OrgID goes alone, or alongside Authorization when {@code send_tenant_header}
   * is set.
   */
  static Map<String, String> authHeaders(LokiSinkConfig config) {
    return Map.copyOf(
        SinkHttpClient.authHeaders(
            config.tenantId(),
            config.authToken(),
            config.bearerToken(),
            config.sendTenantHeader()));
  }

  /**
   * Sends one body.
   *
   * @throws IOException transport errors and timeouts (never carrying credentials)
   * @throws InterruptedException when the calling thread is interrupted before it has a connection
   */
  Response send(EncodedBody body) throws IOException, InterruptedException {
    HttpPost post = new HttpPost(pushUri);
    headers.forEach(post::setHeader);
    post.setEntity(
        new ByteArrayEntity(
            body.bytes(),
            ContentType.create(body.contentType()),
            body.contentEncoding().orElse(null)));
    try {
      return execute(post);
    } catch (CancellationException e) {
      // HttpClient's pool cancels the connection lease of an interrupted thread and throws this
      // unchecked exception; it is the interrupt of a run tearing down, not a crash of the lane.
      Thread.interrupted();
      InterruptedException interrupted =
          new InterruptedException("push interrupted while waiting for a connection");
      interrupted.initCause(e);
      throw interrupted;
    }
  }

  private Response execute(HttpPost post) throws IOException {
    return client.execute(
        post,
        response -> {
          String text = "";
          // Any answer but 204 may carry an error, a 2xx too (Loki 3.2's 260 for a blocked tenant).
          if (response.getCode() != 204 && response.getEntity() != null) {
            try {
              text = EntityUtils.toString(response.getEntity(), MAX_ERROR_BODY);
            } catch (ParseException e) {
              text = "(unreadable response body)";
            }
          }
          Header ra = response.getFirstHeader("Retry-After");
          return new Response(
              response.getCode(), Optional.ofNullable(ra).map(Header::getValue), text.strip());
        });
  }

  @Override
  public void close() {
    client.close(CloseMode.GRACEFUL);
  }
}
