package io.sf2loki.spi;

import java.util.OptionalInt;

/**
 * Base of the {@link Sink} failures; see the subtypes for the caller's next move. The lanes handle
 * them (retry, or a counted drop), so they reach the engine only inside another failure; their
 * {@link #failureClass()} says what they are then.
 */
public abstract class SinkException extends Exception implements ClassifiedFailure {

  private static final long serialVersionUID = 1L;

  private final int status;

  protected SinkException(String message, int status, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** The HTTP status that caused this failure; empty for transport errors. */
  public OptionalInt status() {
    return status > 0 ? OptionalInt.of(status) : OptionalInt.empty();
  }
}
