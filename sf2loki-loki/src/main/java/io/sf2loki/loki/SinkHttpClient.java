package io.sf2loki.loki;

import io.sf2loki.spi.Secret;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.util.Timeout;

/**
 * How every HTTP sink talks to its endpoint: Apache HttpClient 5 classic, pooled (connections
 * reused across pushes and lanes), connect and socket timeouts, an optional proxy, TLS trusting the
 * JVM store plus an optional CA file; no automatic retries, redirects, decompression or cookies,
 * because the lane is the one retry owner and a redirect could carry credentials elsewhere.
 */
final class SinkHttpClient {

  private SinkHttpClient() {}

  /**
   * A client for one sink.
   *
   * @throws IOException when the CA file cannot be read or holds no certificate
   */
  static CloseableHttpClient create(
      Optional<Path> caFile,
      Duration connectTimeout,
      Duration timeout,
      Optional<URI> proxy,
      String userAgent)
      throws IOException {
    ConnectionConfig connection =
        ConnectionConfig.custom()
            .setConnectTimeout(Timeout.of(connectTimeout))
            .setSocketTimeout(Timeout.of(timeout))
            .build();
    HttpClientConnectionManager pool =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setTlsSocketStrategy(
                ClientTlsStrategyBuilder.create()
                    .setSslContext(TrustMaterial.sslContext(caFile))
                    .buildClassic())
            .setDefaultConnectionConfig(connection)
            .setMaxConnTotal(4) // two lanes, one push in flight each
            .setMaxConnPerRoute(4)
            .build();
    var builder =
        HttpClients.custom()
            .setConnectionManager(pool)
            .setDefaultRequestConfig(
                RequestConfig.custom().setResponseTimeout(Timeout.of(timeout)).build())
            .setUserAgent(userAgent)
            .disableAutomaticRetries()
            .disableRedirectHandling()
            .disableContentCompression()
            .disableCookieManagement();
    proxy.ifPresent(p -> builder.setProxy(new HttpHost(p.getScheme(), p.getHost(), p.getPort())));
    return builder.build();
  }

  /**
   * The auth and tenant headers of loki-push.md §5. Basic uses {@code tenant} as the user (may be
   * empty); X-Scope-OrgID goes alone, or alongside Authorization when {@code sendTenantHeader} is
   * set.
   */
  static Map<String, String> authHeaders(
      Optional<String> tenantId,
      Optional<Secret> basic,
      Optional<Secret> bearer,
      boolean sendTenantHeader) {
    Map<String, String> h = new LinkedHashMap<>();
    String tenant = tenantId.orElse("");
    if (basic.isPresent()) {
      String userPass = tenant + ":" + basic.get().reveal();
      h.put(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(userPass.getBytes(StandardCharsets.UTF_8)));
    } else if (bearer.isPresent()) {
      h.put("Authorization", "Bearer " + bearer.get().reveal());
    }
    boolean withAuth = h.containsKey("Authorization");
    if (!tenant.isEmpty() && (!withAuth || sendTenantHeader)) {
      h.put("X-Scope-OrgID", tenant);
    }
    return h;
  }
}
