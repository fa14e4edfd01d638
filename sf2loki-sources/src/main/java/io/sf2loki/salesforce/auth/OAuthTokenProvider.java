package io.sf2loki.salesforce.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.config.Durations;
import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.entity.UrlEncodedFormEntity;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.NameValuePair;
import org.apache.hc.core5.http.message.BasicNameValuePair;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mints tokens at {@code {login_url}/services/oauth2/token} with one {@link TokenGrant}, caches the
 * token until 60 s before {@code token_ttl} runs out, and mints single-flight. A 4xx answer fails
 * at once; 5xx and transport errors are retried as its {@link TokenRetry} says (the daemon's: 4
 * attempts in total; doctor's: none), each retry announced by one WARN.
 *
 * <p>Metrics: {@code sf2loki_auth_refreshes} per successful mint, {@code
 * sf2loki_auth_errors{reason}} per failed mint sequence, and {@code sf2loki_salesforce_auth_up}: 1
 * after a successful mint, 0 before the first and after a failed sequence (the gauge follows the
 * first provider registered with a registry: the org's shared one in the daemon).
 */
public final class OAuthTokenProvider implements TokenProvider {

  private static final Logger LOG = LoggerFactory.getLogger(OAuthTokenProvider.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BODY = 64 * 1024;

  private final CloseableHttpClient http;
  private final URI tokenUrl;
  private final TokenGrant grant;
  private final Duration tokenTtl;
  private final Clock clock;
  private final TokenRetry retry;
  private final Sleeper sleeper;
  private final Counter refreshes;
  private final MeterRegistry metrics;
  private final AtomicInteger up = new AtomicInteger();
  private final ReentrantLock mintLock = new ReentrantLock();
  private volatile AccessToken current;

  /** A provider with the standard number of attempts, {@code backoff} between them. */
  public OAuthTokenProvider(
      CloseableHttpClient http,
      URI loginUrl,
      TokenGrant grant,
      Duration tokenTtl,
      Clock clock,
      Backoff backoff,
      Sleeper sleeper,
      MeterRegistry metrics) {
    this(
        http,
        loginUrl,
        grant,
        tokenTtl,
        clock,
        new TokenRetry(TokenRetry.STANDARD_ATTEMPTS, backoff),
        sleeper,
        metrics);
  }

  /** A provider that retries a transient failure as {@code retry} says. */
  public OAuthTokenProvider(
      CloseableHttpClient http,
      URI loginUrl,
      TokenGrant grant,
      Duration tokenTtl,
      Clock clock,
      TokenRetry retry,
      Sleeper sleeper,
      MeterRegistry metrics) {
    this.http = Objects.requireNonNull(http, "http");
    String base = loginUrl.toString().replaceAll("/+$", "");
    this.tokenUrl = URI.create(base + "/services/oauth2/token");
    this.grant = Objects.requireNonNull(grant, "grant");
    if (tokenTtl.compareTo(SalesforceConfig.MIN_TOKEN_TTL) <= 0) {
      throw new IllegalArgumentException("token ttl must exceed the 60s refresh margin");
    }
    this.tokenTtl = tokenTtl;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.retry = Objects.requireNonNull(retry, "retry");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.refreshes = Counter.builder("sf2loki_auth_refreshes").register(metrics);
    this.metrics = metrics;
    Gauge.builder("sf2loki_salesforce_auth_up", up, AtomicInteger::get)
        .description("1 while the last Salesforce token mint succeeded, else 0")
        .strongReference(true)
        .register(metrics);
  }

  /**
   * The provider the {@code salesforce} section describes, with the documented retry policy.
   *
   * @param random the jitter of that policy's backoff
   */
  public static OAuthTokenProvider fromConfig(
      SalesforceConfig config,
      CloseableHttpClient http,
      Clock clock,
      RandomGenerator random,
      MeterRegistry metrics) {
    return fromConfig(config, http, clock, TokenRetry.standard(random), metrics);
  }

  /** The provider the {@code salesforce} section describes, retrying as {@code retry} says. */
  public static OAuthTokenProvider fromConfig(
      SalesforceConfig config,
      CloseableHttpClient http,
      Clock clock,
      TokenRetry retry,
      MeterRegistry metrics) {
    String audience = config.loginUrl().toString().replaceAll("/+$", "");
    TokenGrant grant =
        switch (config.authMode()) {
          case JWT_BEARER ->
              new JwtBearerGrant(
                  config.clientId(),
                  config.username().orElseThrow(),
                  audience,
                  PemKeys.parseRsaPrivateKey(config.privateKey().orElseThrow().reveal()));
          case CLIENT_CREDENTIALS ->
              new ClientCredentialsGrant(config.clientId(), config.clientSecret().orElseThrow());
        };
    return new OAuthTokenProvider(
        http, config.loginUrl(), grant, config.tokenTtl(), clock, retry, Sleeper.SYSTEM, metrics);
  }

  @Override
  public AccessToken token() throws AuthException, InterruptedException {
    AccessToken t = current;
    if (t != null && clock.instant().isBefore(t.refreshAt())) {
      return t;
    }
    mintLock.lockInterruptibly();
    try {
      t = current; // another caller may have minted while we waited (single-flight)
      if (t != null && clock.instant().isBefore(t.refreshAt())) {
        return t;
      }
      current = null;
      AccessToken minted = mintWithRetries();
      current = minted;
      return minted;
    } finally {
      mintLock.unlock();
    }
  }

  @Override
  public void invalidate(AccessToken used) {
    mintLock.lock();
    try {
      if (current == used) {
        current = null;
      }
    } finally {
      mintLock.unlock();
    }
  }

  private AccessToken mintWithRetries() throws AuthException, InterruptedException {
    AuthException last;
    for (int attempt = 1; ; attempt++) {
      try {
        AccessToken t = mintOnce();
        refreshes.increment();
        up.set(1);
        return t;
      } catch (AuthException e) {
        last = e;
        if (!e.unreachable() || attempt >= retry.attempts()) {
          break;
        }
        Duration delay = retry.backoff().delay(attempt);
        LOG.warn(
            "token request attempt {}/{} failed: {}; retrying in {}",
            attempt,
            retry.attempts(),
            e.getMessage(),
            Durations.format(delay));
        sleeper.sleep(delay);
      }
    }
    up.set(0);
    Counter.builder("sf2loki_auth_errors")
        .description("failed token mint sequences, by reason")
        .tag("reason", last.metricReason())
        .register(metrics)
        .increment();
    throw last;
  }

  private AccessToken mintOnce() throws AuthException {
    Instant now = clock.instant();
    List<NameValuePair> form = new ArrayList<>();
    for (Map.Entry<String, String> e : grant.form(now).entrySet()) {
      form.add(new BasicNameValuePair(e.getKey(), e.getValue()));
    }
    HttpPost post = new HttpPost(tokenUrl);
    post.setEntity(new UrlEncodedFormEntity(form, StandardCharsets.UTF_8));
    TokenResponse response;
    try {
      response =
          http.execute(post, r -> new TokenResponse(r.getCode(), readBounded(r.getEntity())));
    } catch (IOException e) {
      throw new AuthException(
          0,
          "",
          grant.name()
              + " token request to "
              + tokenUrl
              + " failed: "
              + e.getClass().getSimpleName(),
          e);
    }
    return parse(response, now);
  }

  private AccessToken parse(TokenResponse r, Instant mintedAt) throws AuthException {
    JsonNode body;
    try {
      body = JSON.readTree(r.body());
    } catch (IOException e) {
      body = null;
    }
    if (r.status() < 200 || r.status() >= 300) {
      String error = body == null ? "" : body.path("error").asText("");
      String description = body == null ? "" : body.path("error_description").asText("");
      String detail =
          error.isEmpty()
              ? "a non-OAuth body of " + r.body().length() + " characters"
              : error + (description.isEmpty() ? "" : ": " + description);
      throw new AuthException(
          r.status(),
          error,
          description,
          grant.name() + " token request to " + tokenUrl + " failed: " + r.status() + " " + detail,
          null);
    }
    String token = body == null ? "" : body.path("access_token").asText("");
    String instance = body == null ? "" : body.path("instance_url").asText("");
    if (token.isBlank() || !instance.startsWith("http")) {
      throw new AuthException(
          r.status(),
          "malformed_response",
          grant.name() + " token response from " + tokenUrl + " lacks access_token/instance_url",
          null);
    }
    Instant refreshAt = mintedAt.plus(tokenTtl).minus(SalesforceConfig.MIN_TOKEN_TTL);
    return new AccessToken(
        Secret.of(token),
        URI.create(instance.replaceAll("/+$", "")),
        refreshAt,
        identityUrl(body.path("id").asText("")));
  }

  /** The identity URL of the response, when it sent a usable one (it is only ever parsed). */
  private static Optional<URI> identityUrl(String id) {
    if (!id.startsWith("http")) {
      return Optional.empty();
    }
    try {
      return Optional.of(new URI(id));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  private static String readBounded(HttpEntity entity) throws IOException {
    if (entity == null) {
      return "";
    }
    try (InputStream in = entity.getContent()) {
      return new String(in.readNBytes(MAX_BODY), StandardCharsets.UTF_8);
    }
  }

  private record TokenResponse(int status, String body) {}
}
