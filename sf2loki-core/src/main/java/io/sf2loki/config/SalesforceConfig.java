package io.sf2loki.config;

import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Secret;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code salesforce} section: how to mint tokens and talk to the org.
 *
 * @param loginUrl the resolved login host (explicit, or from {@code environment})
 * @param environment {@code production} or {@code sandbox}
 * @param authMode how tokens are minted
 * @param clientId the connected app's consumer key
 * @param username the JWT subject (jwt_bearer)
 * @param privateKey the PEM key that signs the JWT (jwt_bearer)
 * @param clientSecret the consumer secret (client_credentials)
 * @param apiVersion e.g. {@code 60.0}
 * @param tokenTtl assumed token lifetime
 * @param orgId the org id when configured
 * @param requestTimeout per-call timeout
 * @param proxy HTTP(S) proxy, when configured
 */
public record SalesforceConfig(
    URI loginUrl,
    String environment,
    AuthMode authMode,
    String clientId,
    Optional<String> username,
    Optional<Secret> privateKey,
    Optional<Secret> clientSecret,
    String apiVersion,
    Duration tokenTtl,
    Optional<String> orgId,
    Duration requestTimeout,
    Optional<URI> proxy) {

  /** Refresh margin before a token's assumed expiry; a ttl must exceed it. */
  public static final Duration MIN_TOKEN_TTL = Duration.ofSeconds(60);

  private static final Set<String> GENERIC_LOGIN_HOSTS =
      Set.of("login.salesforce.com", "test.salesforce.com");

  /** The token flows. */
  public enum AuthMode {
    JWT_BEARER,
    CLIENT_CREDENTIALS
  }

  /** Binds and validates {@code salesforce}, recording every problem on {@code r}. */
  public static SalesforceConfig bind(ConfigSection r) {
    String environment = r.oneOf("environment", Set.of("production", "sandbox"));
    String mode = r.oneOf("auth_mode", Set.of("jwt_bearer", "client_credentials"));
    AuthMode authMode =
        "client_credentials".equals(mode) ? AuthMode.CLIENT_CREDENTIALS : AuthMode.JWT_BEARER;
    URI loginUrl =
        Urls.optional(r, "login_url")
            .orElse(
                URI.create(
                    "sandbox".equals(environment)
                        ? "https://test.salesforce.com"
                        : "https://login.salesforce.com"));
    String clientId = r.requiredString("client_id");
    Optional<String> username = r.optionalString("username");
    Optional<Secret> privateKey = Optional.empty();
    Optional<Secret> clientSecret = Optional.empty();
    if (authMode == AuthMode.JWT_BEARER) {
      if (username.isEmpty()) {
        r.problem("username", r.path("username") + " is required when auth_mode is jwt_bearer");
      }
      privateKey = r.requiredSecret("private_key");
    } else {
      clientSecret = r.requiredSecret("client_secret");
      if (GENERIC_LOGIN_HOSTS.contains(loginUrl.getHost().toLowerCase(Locale.ROOT))) {
        r.problem(
            "login_url",
            r.path("login_url")
                + " must be your My Domain URL (https://<domain>.my.salesforce.com) when auth_mode"
                + " is client_credentials, not "
                + loginUrl.getHost());
      }
    }
    String apiVersion = r.requiredString("api_version");
    if (!apiVersion.isEmpty() && !apiVersion.matches("\\d{2,3}\\.0")) {
      r.problem(
          "api_version", r.path("api_version") + " must look like 60.0 (got '" + apiVersion + "')");
    }
    Duration tokenTtl = r.positiveDuration("token_ttl");
    if (tokenTtl.compareTo(MIN_TOKEN_TTL) <= 0) {
      r.problem(
          "token_ttl",
          r.path("token_ttl")
              + " ("
              + Durations.format(tokenTtl)
              + ") must be greater than the 60s refresh margin");
    }
    Optional<String> orgId = r.optionalString("org_id");
    orgId.ifPresent(
        id -> {
          if (!id.matches("00D[0-9A-Za-z]{12}([0-9A-Za-z]{3})?")) {
            r.problem("org_id", r.path("org_id") + " must be a 15- or 18-character 00D... id");
          }
        });
    return new SalesforceConfig(
        loginUrl,
        environment,
        authMode,
        clientId,
        username,
        privateKey,
        clientSecret,
        apiVersion,
        tokenTtl,
        orgId,
        r.positiveDuration("request_timeout"),
        Urls.optional(r, "proxy"));
  }
}
