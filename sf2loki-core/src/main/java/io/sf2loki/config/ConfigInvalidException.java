package io.sf2loki.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The configuration cannot be used; carries every problem found, each with its key path. Launchers
 * map it to exit code 2.
 */
public final class ConfigInvalidException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient List<ConfigProblem> problems;

  public ConfigInvalidException(List<ConfigProblem> problems) {
    this(problems.stream().sorted().toList(), true);
  }

  private ConfigInvalidException(List<ConfigProblem> sorted, boolean ignored) {
    super(render(sorted));
    this.problems = List.copyOf(sorted);
  }

  /** A single whole-configuration problem (unreadable file, syntax error). */
  public static ConfigInvalidException of(String path, String message) {
    return new ConfigInvalidException(List.of(new ConfigProblem(path, message)));
  }

  /** The problems, sorted by key path. */
  public List<ConfigProblem> problems() {
    return problems;
  }

  private static String render(List<ConfigProblem> problems) {
    if (problems.size() == 1) {
      return problems.get(0).message();
    }
    return problems.size()
        + " configuration problems:"
        + problems.stream().map(p -> "\n  - " + p.message()).collect(Collectors.joining());
  }
}
