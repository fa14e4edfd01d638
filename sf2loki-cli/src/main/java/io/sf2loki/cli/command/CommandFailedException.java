package io.sf2loki.cli.command;

/**
 * An operation was refused or failed for a reason the operator can act on; exit code 1 with the
 * message and no stack trace.
 */
public final class CommandFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public CommandFailedException(String message) {
    super(message);
  }

  public CommandFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
