package io.sf2loki.salesforce.auth;

import io.sf2loki.spi.Secret;
import java.net.URI;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A minted Salesforce access token. Compared by identity of the mint: {@link
 * TokenProvider#invalidate} discards a token only if it is still the cached one.
 *
 * @param value the bearer token (redacted in {@link #toString()})
 * @param instanceUrl the org's instance base URL every REST call goes to
 * @param refreshAt when the provider stops handing it out and mints anew
 * @param identityUrl the token response's {@code id}, the identity URL {@code
 *     https://login.salesforce.com/id/<org id>/<user id>}, when it sent one
 */
public record AccessToken(
    Secret value, URI instanceUrl, Instant refreshAt, Optional<URI> identityUrl) {

  public AccessToken {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(instanceUrl, "instanceUrl");
    Objects.requireNonNull(refreshAt, "refreshAt");
    Objects.requireNonNull(identityUrl, "identityUrl");
  }

  /** A token whose response named no identity URL. */
  public AccessToken(Secret value, URI instanceUrl, Instant refreshAt) {
    this(value, instanceUrl, refreshAt, Optional.empty());
  }

  /** The {@code Authorization} header value. */
  public String bearerHeader() {
    return "Bearer " + value.reveal();
  }
}
