package io.sf2loki.config;

import io.sf2loki.spi.ConfigSection;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/** URL-valued configuration keys: absolute http(s) URLs, reported without credentials. */
public final class Urls {

  private Urls() {}

  /** An optional absolute http or https URL. */
  public static Optional<URI> optional(ConfigSection r, String key) {
    Optional<String> text = r.optionalString(key);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      URI uri = new URI(text.get());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
        r.problem(
            key, r.path(key) + " must be an http:// or https:// URL (got '" + redact(uri) + "')");
        return Optional.empty();
      }
      return Optional.of(uri);
    } catch (URISyntaxException e) {
      r.problem(key, r.path(key) + " is not a valid URL: " + e.getReason());
      return Optional.empty();
    }
  }

  /** A required absolute http or https URL. */
  public static URI required(ConfigSection r, String key) {
    Optional<URI> uri = optional(r, key);
    if (uri.isEmpty() && r.optionalString(key).isEmpty()) {
      r.problem(key, r.path(key) + " must not be empty");
    }
    return uri.orElse(URI.create("http://invalid.invalid"));
  }

  /** The URL with any user-info replaced, for logs and messages (invariant 8). */
  public static String redact(URI uri) {
    if (uri.getRawUserInfo() == null) {
      return uri.toString();
    }
    return uri.toString().replace(uri.getRawUserInfo() + "@", "***@");
  }
}
