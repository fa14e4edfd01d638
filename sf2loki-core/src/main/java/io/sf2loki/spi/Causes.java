package io.sf2loki.spi;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a failure's cause chain for the one line an expected failure is logged as ({@code ... :
 * <cause chain messages>}, its stack trace at DEBUG only) and for what the failure says it is.
 */
public final class Causes {

  private Causes() {}

  /**
   * The messages of {@code failure} and its causes, joined by {@code ": "}: a cause whose message
   * the previous one already contains is left out, and one without a message is named by its simple
   * class name ({@code SocketTimeoutException}).
   */
  public static String chain(Throwable failure) {
    StringBuilder out = new StringBuilder();
    Set<Throwable> seen = new HashSet<>();
    String previous = "";
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      String message = t.getMessage();
      String text =
          message == null || message.isBlank() ? t.getClass().getSimpleName() : message.strip();
      if (!previous.contains(text)) {
        out.append(out.length() == 0 ? "" : ": ").append(text);
      }
      previous = text;
    }
    return out.toString();
  }

  /** What the first {@link ClassifiedFailure} in {@code failure}'s cause chain says it is. */
  public static Optional<FailureClass> classified(Throwable failure) {
    Set<Throwable> seen = new HashSet<>();
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      if (t instanceof ClassifiedFailure c) {
        return Optional.of(c.failureClass());
      }
    }
    return Optional.empty();
  }
}
