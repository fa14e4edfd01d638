package io.sf2loki.salesforce.auth;

import io.sf2loki.spi.Secret;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** The client credentials flow: client id and secret in the form body (not HTTP Basic). */
public final class ClientCredentialsGrant implements TokenGrant {

  private final String clientId;
  private final Secret clientSecret;

  public ClientCredentialsGrant(String clientId, Secret clientSecret) {
    this.clientId = Objects.requireNonNull(clientId, "clientId");
    this.clientSecret = Objects.requireNonNull(clientSecret, "clientSecret");
  }

  @Override
  public String name() {
    return "client_credentials";
  }

  @Override
  public Map<String, String> form(Instant now) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "client_credentials");
    form.put("client_id", clientId);
    form.put("client_secret", clientSecret.reveal());
    return form;
  }
}
