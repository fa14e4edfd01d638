package io.sf2loki.otlp;

import io.sf2loki.loki.HttpSinkSupport;
import io.sf2loki.spi.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

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
    javax.net.ssl.SSLContext ssl;
    try {
      ssl = HttpSinkSupport.sslContext(config.caFile());
    } catch (IOException e) {
      throw new IOException("sink.otlp.ca_file: " + e.getMessage(), e);
    }
    ConnectionConfig connection =
        ConnectionConfig.custom()
            .setConnectTimeout(Timeout.of(config.connectTimeout()))
            .setSocketTimeout(Timeout.of(config.timeout()))
            .build();
    HttpClientConnectionManager pool =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setTlsSocketStrategy(
                ClientTlsStrategyBuilder.create().setSslContext(ssl).buildClassic())
            .setDefaultConnectionConfig(connection)
            .setMaxConnTotal(4) // two lanes, one export in flight each
            .setMaxConnPerRoute(4)
            .build();
    var builder =
        HttpClients.custom()
            .setConnectionManager(pool)
            .setDefaultRequestConfig(
                RequestConfig.custom().setResponseTimeout(Timeout.of(config.timeout())).build())
            .setUserAgent(userAgent)
            .disableAutomaticRetries()
            .disableRedirectHandling()
            .disableContentCompression()
            .disableCookieManagement();
    config
        .proxy()
        .ifPresent(p -> builder.setProxy(new HttpHost(p.getScheme(), p.getHost(), p.getPort())));
    this.client = builder.build();
  }

  /**
   * The configured headers, then the auth and tenant headers as the Loki sink sends them: Basic
   * with {@code tenant_id} as the user, or Bearer; X-Scope-OrgID alone, or alongside Authorization
   * when {@code send_tenant_header} is set.
   */
  static Map<String, String> headers(OtlpSinkConfig config) {
    Map<String, String> h = new LinkedHashMap<>(config.headers());
    String tenant = config.tenantId().orElse("");
    Optional<Secret> basic = config.authToken();
    Optional<Secret> bearer = config.bearerToken();
    if (basic.isPresent()) {
      String userPass = tenant + ":" + basic.get().reveal();
      h.put(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(userPass.getBytes(StandardCharsets.UTF_8)));
    } else if (bearer.isPresent()) {
      h.put("Authorization", "Bearer " + bearer.get().reveal());
    }
    boolean withAuth = basic.isPresent() || bearer.isPresent();
    if (!tenant.isEmpty() && (!withAuth || config.sendTenantHeader())) {
      h.put("X-Scope-OrgID", tenant);
    }
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
