package io.sf2loki.salesforce.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The JWT bearer flow: an RS256-signed assertion with exactly {@code iss} (client id), {@code sub}
 * (username), {@code aud} (the resolved login URL) and {@code exp} (now + 180 s).
 */
public final class JwtBearerGrant implements TokenGrant {

  static final String GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";
  private static final String HEADER = "{\"alg\":\"RS256\",\"typ\":\"JWT\"}";
  private static final long LIFETIME_SECONDS = 180;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String clientId;
  private final String username;
  private final String audience;
  private final PrivateKey key;

  public JwtBearerGrant(String clientId, String username, String audience, PrivateKey key) {
    this.clientId = Objects.requireNonNull(clientId, "clientId");
    this.username = Objects.requireNonNull(username, "username");
    this.audience = Objects.requireNonNull(audience, "audience");
    this.key = Objects.requireNonNull(key, "key");
  }

  @Override
  public String name() {
    return "jwt_bearer";
  }

  @Override
  public Map<String, String> form(Instant now) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", GRANT_TYPE);
    form.put("assertion", assertion(now));
    return form;
  }

  /** The signed compact JWT. */
  String assertion(Instant now) {
    Map<String, Object> claims = new LinkedHashMap<>();
    claims.put("iss", clientId);
    claims.put("sub", username);
    claims.put("aud", audience);
    claims.put("exp", now.getEpochSecond() + LIFETIME_SECONDS);
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String signingInput =
        b64.encodeToString(HEADER.getBytes(StandardCharsets.UTF_8))
            + "."
            + b64.encodeToString(json(claims).getBytes(StandardCharsets.UTF_8));
    try {
      Signature sig = Signature.getInstance("SHA256withRSA");
      sig.initSign(key);
      sig.update(signingInput.getBytes(StandardCharsets.US_ASCII));
      return signingInput + "." + b64.encodeToString(sig.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign the JWT assertion with RS256", e);
    }
  }

  private static String json(Map<String, Object> claims) {
    try {
      return JSON.writeValueAsString(claims);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
