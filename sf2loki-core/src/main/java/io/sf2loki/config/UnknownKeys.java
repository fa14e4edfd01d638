package io.sf2loki.config;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Walks a user's configuration tree against the {@link ConfigSchema}, reporting every key the
 * schema does not know with the nearest known one ({@code servce.http_port} finds {@code
 * service.http_port}). The {@code _file} twin of a secret key is known.
 */
public final class UnknownKeys {

  private final ConfigSchema schema;

  public UnknownKeys(ConfigSchema schema) {
    this.schema = Objects.requireNonNull(schema, "schema");
  }

  /**
   * Adds a problem to {@code problems} for every unknown key under {@code node}.
   *
   * @param prefix the schema path of {@code node} ({@code ""} for the root)
   * @param origin names where the keys came from in the message ({@code "environment override "}),
   *     or {@code ""}
   */
  public void check(ConfigObject node, String prefix, String origin, List<ConfigProblem> problems) {
    for (Map.Entry<String, ConfigValue> e : node.entrySet()) {
      String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
      ConfigValue value = e.getValue();
      if (schema.isSection(path)) {
        if (value instanceof ConfigObject child) {
          check(child, path, origin, problems);
        } else if (value.valueType() != ConfigValueType.NULL) {
          problems.add(new ConfigProblem(path, path + " must be an object (a section)"));
        }
        continue;
      }
      if (schema.key(path).isPresent() || isSecretFileTwin(path)) {
        continue;
      }
      if (value instanceof ConfigObject unknownSection && !unknownSection.isEmpty()) {
        // report the leaves: "servce.http_port" finds "service.http_port"
        check(unknownSection, path, origin, problems);
        continue;
      }
      problems.add(new ConfigProblem(path, unknownMessage(origin, path)));
    }
  }

  private boolean isSecretFileTwin(String path) {
    return path.endsWith("_file")
        && schema
            .key(path.substring(0, path.length() - "_file".length()))
            .map(KeyDoc::isSecret)
            .orElse(false);
  }

  private String unknownMessage(String origin, String path) {
    String message = "unknown configuration " + origin + "key '" + path + "'";
    return Suggestions.nearest(path, schema.writablePaths())
        .map(s -> message + " (did you mean '" + s + "'?)")
        .orElse(message);
  }
}
