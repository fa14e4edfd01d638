package io.sf2loki.cli.migrate;

import java.util.List;

/**
 * {@code --org} names no org of the Python file: the file is fine, the option is not. The message
 * lists the orgs there are, so the operator can pick one (or leave {@code --org} out to convert
 * them all).
 */
public final class UnknownOrgException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String org;
  private final List<String> available;

  /**
   * @param source the file name, for the message
   * @param org the name given with {@code --org}
   * @param available the file's {@code orgs[].name}s in order; empty for a single-org file
   */
  public UnknownOrgException(String source, String org, List<String> available) {
    super(message(source, org, available));
    this.org = org;
    this.available = List.copyOf(available);
  }

  /** The name given with {@code --org}. */
  public String org() {
    return org;
  }

  /** The orgs the file has, in its order; empty for a single-org file. */
  public List<String> available() {
    return available;
  }

  private static String message(String source, String org, List<String> available) {
    if (available.isEmpty()) {
      return "--org "
          + org
          + ": "
          + source
          + " is a single-org file (salesforce, no orgs): convert it without --org";
    }
    return "--org "
        + org
        + ": "
        + source
        + " has no org of that name (there are: "
        + String.join(", ", available)
        + "; without --org all of them are converted)";
  }
}
