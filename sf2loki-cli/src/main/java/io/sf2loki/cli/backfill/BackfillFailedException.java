package io.sf2loki.cli.backfill;

/**
 * A backfill that did not finish (aborted, failed, refused), with what to do; exit code 1 with the
 * message and no stack trace.
 */
public final class BackfillFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public BackfillFailedException(String message) {
    super(message);
  }

  public BackfillFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
