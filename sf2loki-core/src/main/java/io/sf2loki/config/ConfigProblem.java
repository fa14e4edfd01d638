package io.sf2loki.config;

import java.util.Objects;

/**
 * One configuration mistake.
 *
 * @param path the full key path ({@code coordinate.file_lease.renew_interval}), or empty for a
 *     whole-file problem
 * @param message what is wrong, starting with the key path, never containing a secret
 */
public record ConfigProblem(String path, String message) implements Comparable<ConfigProblem> {

  public ConfigProblem {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public int compareTo(ConfigProblem other) {
    int byPath = path.compareTo(other.path);
    return byPath != 0 ? byPath : message.compareTo(other.message);
  }

  @Override
  public String toString() {
    return message;
  }
}
