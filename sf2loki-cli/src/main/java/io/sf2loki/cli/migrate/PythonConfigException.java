package io.sf2loki.cli.migrate;

import java.util.List;

/**
 * The input is not a configuration the Python sf2loki would load (not YAML, not a mapping, an
 * unknown key, a value of the wrong type). Every problem is reported at once, by dotted path, as
 * the Python loader does; nothing is converted.
 */
public final class PythonConfigException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public PythonConfigException(String source, List<String> problems) {
    super(source + " is not a valid Python sf2loki configuration: " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  /** Each problem, by dotted Python key. */
  public List<String> problems() {
    return problems;
  }
}
