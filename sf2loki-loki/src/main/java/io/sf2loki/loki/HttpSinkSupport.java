package io.sf2loki.loki;

import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.Secret;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * The pieces of the Loki sink that another HTTP sink (sf2loki-otlp) shares rather than copies: the
 * HTTP client set-up and the auth headers, TLS trust, {@code Retry-After}, the transport-error
 * vocabulary, the one-line answer text and the dead-letter file (so {@code deadletter replay} reads
 * every sink's records alike). A public facade over package-private classes, so the Loki sink's own
 * structure stays as it is.
 */
public final class HttpSinkSupport {

  private HttpSinkSupport() {}

  /**
   * The HTTP client every sink uses: pooled, timeouts, optional proxy, TLS with {@code caFile}; no
   * automatic retries, redirects, decompression or cookies (the lane owns retries).
   *
   * @throws IOException when the CA file cannot be read or holds no certificate
   */
  public static CloseableHttpClient httpClient(
      Optional<Path> caFile,
      Duration connectTimeout,
      Duration timeout,
      Optional<URI> proxy,
      String userAgent)
      throws IOException {
    return SinkHttpClient.create(caFile, connectTimeout, timeout, proxy, userAgent);
  }

  /**
   * The Authorization (Basic with the tenant as user, or Bearer) and X-Scope-OrgID headers, as the
   * Loki sink sends them; a mutable map in that order.
   */
  public static Map<String, String> authHeaders(
      Optional<String> tenantId,
      Optional<Secret> basic,
      Optional<Secret> bearer,
      boolean sendTenantHeader) {
    return SinkHttpClient.authHeaders(tenantId, basic, bearer, sendTenantHeader);
  }

  /**
   * An SSL context trusting the JVM's roots and {@code caFile}'s certificates.
   *
   * @throws IOException when the CA file cannot be read or holds no certificate
   */
  public static SSLContext sslContext(Optional<Path> caFile) throws IOException {
    return TrustMaterial.sslContext(caFile);
  }

  /** The delay a {@code Retry-After} value asks for; empty when absent or unparseable. */
  public static Optional<Duration> retryAfter(String header, Clock clock) {
    return RetryAfter.parse(header, clock);
  }

  /**
   * The {@code reason} tag of a transport error: {@code timeout}, {@code connect}, {@code tls},
   * {@code connection_closed} or {@code io}.
   */
  public static String transportReason(IOException e) {
    return PushSender.transportReason(e);
  }

  /** {@code ": "} and {@code body} on one line, cut at 300 characters; empty for an empty body. */
  public static String describe(String body) {
    return PushSender.describe(body);
  }

  /**
   * A dead-letter file in the format {@link DeadLetterRecords} reads back.
   *
   * @param maxBytes the size at which the file is rotated to {@code <path>.1}
   */
  public static DeadLetters deadLetters(Path path, long maxBytes, Clock clock) {
    return new DeadLetters(new DeadLetterFile(path, maxBytes, clock));
  }

  /** Appends permanently rejected entries as JSON lines, fsynced. Thread-safe. */
  public static final class DeadLetters {
    private final DeadLetterFile file;

    private DeadLetters(DeadLetterFile file) {
      this.file = file;
    }

    /** The file's path. */
    public Path path() {
      return file.path();
    }

    /**
     * Appends one record.
     *
     * @param reason the drop reason ({@code bad_request}, ...)
     * @param status the HTTP status of the rejection, 0 when none
     * @param error the backend's message (shortened in the record)
     * @throws IOException when the record cannot be written; the caller counts and logs it
     */
    public void append(LogEntry e, String reason, int status, String error) throws IOException {
      file.append(e, reason, status, error);
    }
  }
}
