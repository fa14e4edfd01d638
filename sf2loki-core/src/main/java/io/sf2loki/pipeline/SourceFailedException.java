package io.sf2loki.pipeline;

/**
 * A source's {@code run} threw (an exception or an {@link Error}): the run stops gracefully and
 * reports this as its failure.
 */
public final class SourceFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String source;

  SourceFailedException(String source, Throwable cause) {
    super("source " + source + " failed: " + cause, cause);
    this.source = source;
  }

  /** The failed source's name. */
  public String source() {
    return source;
  }
}
