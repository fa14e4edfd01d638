package io.sf2loki.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The documentation of one configuration key, read from the comments above it in a module's {@code
 * reference.conf} — the single source of truth for defaults, the reference page and the example
 * file.
 *
 * @param path the full key path
 * @param type the declared type tag: {@code string, int, bool, duration, bytes, list, map, secret,
 *     path, url}
 * @param defaultValue the default rendered as HOCON, or empty when unset by default
 * @param description what the key does
 * @param required whether a value must be given (possibly only in some modes; see description)
 * @param example a value to show in the example config instead of the default
 */
public record KeyDoc(
    String path,
    String type,
    Optional<String> defaultValue,
    String description,
    boolean required,
    Optional<String> example) {

  public KeyDoc {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(defaultValue, "defaultValue");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(example, "example");
  }

  /** True for {@code secret} keys, which also accept {@code <key>_file}. */
  public boolean isSecret() {
    return "secret".equals(type);
  }

  /** True for free-form objects whose children are user-chosen names (labels, headers). */
  public boolean isMap() {
    return "map".equals(type);
  }

  /** The key's last segment. */
  public String name() {
    int dot = path.lastIndexOf('.');
    return dot < 0 ? path : path.substring(dot + 1);
  }
}
