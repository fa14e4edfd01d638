package io.sf2loki.salesforce.rest;

import io.sf2loki.config.SalesforceConfig;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.auth.BasicCredentialsProvider;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.util.Timeout;

/**
 * Builds the one HTTP client all Salesforce calls share: connect timeout (at most 10 s), read
 * timeout {@code salesforce.request_timeout}, pool acquire 30 s, no transport-level retries (each
 * call decides), no redirects, and the configured HTTP(S) proxy (credentials from its user-info).
 */
public final class SalesforceHttpClients {

  private static final Duration MAX_CONNECT = Duration.ofSeconds(10);
  private static final Duration POOL_ACQUIRE = Duration.ofSeconds(30);

  private SalesforceHttpClients() {}

  /** The client for {@code config}; the caller closes it. */
  public static CloseableHttpClient create(SalesforceConfig config) {
    return create(config.requestTimeout(), config.proxy());
  }

  /** A client with {@code timeout} as the read timeout, through {@code proxy} when present. */
  public static CloseableHttpClient create(Duration timeout, Optional<URI> proxy) {
    Duration connect = timeout.compareTo(MAX_CONNECT) < 0 ? timeout : MAX_CONNECT;
    ConnectionConfig connection =
        ConnectionConfig.custom()
            .setConnectTimeout(Timeout.ofMilliseconds(connect.toMillis()))
            .setSocketTimeout(Timeout.ofMilliseconds(timeout.toMillis()))
            .build();
    RequestConfig request =
        RequestConfig.custom()
            .setConnectionRequestTimeout(Timeout.ofMilliseconds(POOL_ACQUIRE.toMillis()))
            .setResponseTimeout(Timeout.ofMilliseconds(timeout.toMillis()))
            .setRedirectsEnabled(false)
            .build();
    HttpClientBuilder builder =
        HttpClients.custom()
            .setConnectionManager(
                PoolingHttpClientConnectionManagerBuilder.create()
                    .setDefaultConnectionConfig(connection)
                    .setMaxConnTotal(16)
                    .setMaxConnPerRoute(16)
                    .build())
            .setDefaultRequestConfig(request)
            .disableAutomaticRetries()
            .disableRedirectHandling()
            .disableCookieManagement();
    proxy.ifPresent(p -> configureProxy(builder, p));
    return builder.build();
  }

  private static void configureProxy(HttpClientBuilder builder, URI proxy) {
    int port = proxy.getPort() > 0 ? proxy.getPort() : "https".equals(proxy.getScheme()) ? 443 : 80;
    HttpHost host = new HttpHost(proxy.getScheme(), proxy.getHost(), port);
    builder.setProxy(host);
    String userInfo = proxy.getRawUserInfo();
    if (userInfo != null && userInfo.contains(":")) {
      int colon = userInfo.indexOf(':');
      BasicCredentialsProvider credentials = new BasicCredentialsProvider();
      credentials.setCredentials(
          new AuthScope(host),
          new UsernamePasswordCredentials(
              URLDecoder.decode(userInfo.substring(0, colon), StandardCharsets.UTF_8),
              URLDecoder.decode(userInfo.substring(colon + 1), StandardCharsets.UTF_8)
                  .toCharArray()));
      builder.setDefaultCredentialsProvider(credentials);
    }
  }
}
