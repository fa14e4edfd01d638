package io.sf2loki.testkit.salesforce;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code POST /services/oauth2/token} for the JWT bearer and client credentials grants, verifying
 * what Salesforce verifies: the RS256 signature against the connected app's certificate key, and
 * the {@code iss}, {@code sub}, {@code aud} and {@code exp} claims (exactly those four).
 */
final class TokenEndpoint {

  static final String JWT_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
  private static final Set<String> CLAIMS = Set.of("iss", "sub", "aud", "exp");

  private final FakeSalesforce fake;
  private final Exchanges http;

  TokenEndpoint(FakeSalesforce fake, Exchanges http) {
    this.fake = fake;
    this.http = http;
  }

  void handle(HttpExchange ex) throws IOException {
    if (!"POST".equals(ex.getRequestMethod())) {
      http.oauthError(ex, 405, "invalid_request", "must use HTTP POST");
      return;
    }
    String contentType = ex.getRequestHeaders().getFirst("Content-Type");
    if (contentType == null || !contentType.startsWith("application/x-www-form-urlencoded")) {
      http.oauthError(ex, 400, "invalid_request", "unsupported content type");
      return;
    }
    Map<String, String> form = Exchanges.decodeForm(Exchanges.readBody(ex));
    String grant = form.getOrDefault("grant_type", "");
    Optional<String> error =
        switch (grant) {
          case JWT_GRANT -> verifyJwt(form.getOrDefault("assertion", ""));
          case "client_credentials" -> verifyClientCredentials(form);
          default -> Optional.of("unsupported_grant_type|grant type not supported");
        };
    if (error.isPresent()) {
      String[] parts = error.get().split("\\|", 2);
      fake.recordTokenFailure();
      http.oauthError(ex, 400, parts[0], parts[1]);
      return;
    }
    String token = fake.issueToken();
    Map<String, String> body = new LinkedHashMap<>();
    body.put("access_token", token);
    body.put("instance_url", fake.baseUrl().toString());
    body.put("id", fake.baseUrl() + "/id/" + fake.settings().orgId() + "/005000000000001AAA");
    body.put("token_type", "Bearer");
    body.put("issued_at", Long.toString(fake.serverNow().toEpochMilli()));
    body.put("signature", "c2lnbmF0dXJl");
    body.put("scope", fake.settings().scopeList());
    http.json(ex, 200, Json.write(body));
  }

  private Optional<String> verifyClientCredentials(Map<String, String> form) {
    if (!fake.settings().clientId().equals(form.get("client_id"))) {
      return Optional.of("invalid_client_id|client identifier invalid");
    }
    if (fake.settings().clientSecret().isEmpty()
        || !fake.settings().clientSecret().get().equals(form.get("client_secret"))) {
      return Optional.of("invalid_client|invalid client credentials");
    }
    return Optional.empty();
  }

  private Optional<String> verifyJwt(String assertion) {
    String[] parts = assertion.split("\\.");
    if (parts.length != 3 || fake.settings().jwtPublicKey().isEmpty()) {
      return Optional.of("invalid_grant|invalid assertion");
    }
    try {
      JsonNode header = Json.read(decode(parts[0]));
      JsonNode claims = Json.read(decode(parts[1]));
      if (!"RS256".equals(header.path("alg").asText())) {
        return Optional.of("invalid_grant|invalid assertion: alg must be RS256");
      }
      if (!verifySignature(fake.settings().jwtPublicKey().get(), parts)) {
        return Optional.of("invalid_grant|invalid assertion: signature verification failed");
      }
      Set<String> names = new TreeSet<>();
      claims.fieldNames().forEachRemaining(names::add);
      if (!names.equals(CLAIMS)) {
        return Optional.of("invalid_grant|invalid assertion: claims must be " + CLAIMS);
      }
      return checkClaims(claims);
    } catch (IOException | IllegalArgumentException | GeneralSecurityException e) {
      return Optional.of("invalid_grant|invalid assertion");
    }
  }

  private Optional<String> checkClaims(JsonNode claims) {
    if (!fake.settings().clientId().equals(claims.path("iss").asText())) {
      return Optional.of("invalid_client_id|client identifier invalid");
    }
    if (!fake.audience().equals(claims.path("aud").asText())) {
      return Optional.of("invalid_grant|audience is invalid");
    }
    if (!claims.path("exp").isIntegralNumber()) {
      return Optional.of("invalid_grant|invalid assertion: exp must be a NumericDate");
    }
    Instant exp = Instant.ofEpochSecond(claims.path("exp").asLong());
    Instant now = fake.serverNow();
    if (!exp.isAfter(now)) {
      return Optional.of("invalid_grant|expired authorization code");
    }
    if (exp.isAfter(now.plusSeconds(300))) {
      return Optional.of("invalid_grant|invalid assertion: exp too far in the future");
    }
    if (fake.settings().username().isEmpty()
        || !fake.settings().username().get().equals(claims.path("sub").asText())) {
      return Optional.of("invalid_grant|user hasn't approved this consumer");
    }
    return Optional.empty();
  }

  private static boolean verifySignature(PublicKey key, String[] parts)
      throws GeneralSecurityException {
    Signature sig = Signature.getInstance("SHA256withRSA");
    sig.initVerify(key);
    sig.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
    return sig.verify(Base64.getUrlDecoder().decode(parts[2]));
  }

  private static String decode(String part) {
    return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
  }
}
