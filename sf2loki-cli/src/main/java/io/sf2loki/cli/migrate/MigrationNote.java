package io.sf2loki.cli.migrate;

import java.util.Objects;

/**
 * One line of the conversion report: where a Python key went, or one thing the operator must know
 * about it.
 *
 * @param pythonKey the dotted Python key ({@code []} for a list element, {@code orgs[<name>]} for
 *     an org of a multi-org file)
 * @param kind what kind of line it is
 * @param message what happens here instead, in one line; for {@link Kind#CONVERTED} our key or keys
 */
public record MigrationNote(String pythonKey, Kind kind, String message) {

  /** The kinds of line: the differences most serious first, then a plain conversion. */
  public enum Kind {
    /** The key was dropped: nothing here does what it did. */
    NO_EQUIVALENT,
    /** The key was converted, but its meaning differs in the way the message says. */
    DIFFERENT_SEMANTICS,
    /** The key was absent; its Python default differs from ours, so it was written out. */
    DEFAULT_WRITTEN,
    /** The key was converted to the key or keys in the message, with its meaning. */
    CONVERTED
  }

  public MigrationNote {
    Objects.requireNonNull(pythonKey, "pythonKey");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
  }

  /**
   * The note as one report line, e.g. {@code no equivalent: service.telemetry: ...} or {@code
   * orgs[prod].salesforce.client_id -> orgs[0].salesforce.client_id}.
   */
  public String line() {
    return switch (kind) {
      case NO_EQUIVALENT -> "no equivalent: " + pythonKey + ": " + message;
      case DIFFERENT_SEMANTICS -> "different semantics: " + pythonKey + ": " + message;
      case DEFAULT_WRITTEN -> "default written: " + pythonKey + ": " + message;
      case CONVERTED -> pythonKey + " -> " + message;
    };
  }

  /** True for a line the operator should review: anything but a plain conversion. */
  public boolean needsReview() {
    return kind != Kind.CONVERTED;
  }
}
