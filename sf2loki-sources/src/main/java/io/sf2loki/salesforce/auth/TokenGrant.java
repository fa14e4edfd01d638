package io.sf2loki.salesforce.auth;

import java.time.Instant;
import java.util.Map;

/** The form fields of one OAuth grant, posted to {@code /services/oauth2/token}. */
public interface TokenGrant {

  /** The form for a mint at {@code now}; may contain secrets, so it is never logged. */
  Map<String, String> form(Instant now);

  /** The flow's config name, for messages ({@code jwt_bearer}, {@code client_credentials}). */
  String name();
}
