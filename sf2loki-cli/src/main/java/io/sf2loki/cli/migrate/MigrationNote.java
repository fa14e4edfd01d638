package io.sf2loki.cli.migrate;

import java.util.Objects;

/**
 * One thing the operator must know about a converted key.
 *
 * @param pythonKey the dotted Python key ({@code []} for a list element)
 * @param kind what kind of difference it is
 * @param message what happens here instead, in one line
 */
public record MigrationNote(String pythonKey, Kind kind, String message) {

  /** The kinds of difference, most serious first. */
  public enum Kind {
    /** The key was dropped: nothing here does what it did. */
    NO_EQUIVALENT,
    /** The key was converted, but its meaning differs in the way the message says. */
    DIFFERENT_SEMANTICS,
    /** The key was absent; its Python default differs from ours, so it was written out. */
    DEFAULT_WRITTEN
  }

  public MigrationNote {
    Objects.requireNonNull(pythonKey, "pythonKey");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
  }

  /** The note as one report line, e.g. {@code no equivalent: sink.loki.egress: ...}. */
  public String line() {
    String label =
        switch (kind) {
          case NO_EQUIVALENT -> "no equivalent";
          case DIFFERENT_SEMANTICS -> "different semantics";
          case DEFAULT_WRITTEN -> "default written";
        };
    return label + ": " + pythonKey + ": " + message;
  }
}
