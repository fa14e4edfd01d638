package io.sf2loki.config;

import com.typesafe.config.Config;
import java.util.Objects;

/**
 * A loaded, resolved configuration whose keys are all known. Values are not validated yet: bind
 * them through {@link #reader()}.
 *
 * @param resolved the merged configuration (defaults, file, environment)
 * @param schema the documentation of every known key
 */
public record LoadedConfig(Config resolved, ConfigSchema schema) {

  public LoadedConfig {
    Objects.requireNonNull(resolved, "resolved");
    Objects.requireNonNull(schema, "schema");
  }

  /** Never renders values: the resolved tree holds secrets (invariant 8). */
  @Override
  public String toString() {
    return "LoadedConfig[" + schema.keys().size() + " known keys]";
  }

  /** A fresh reader with an empty problem list. */
  public ConfigReader reader() {
    return ConfigReader.of(resolved);
  }
}
