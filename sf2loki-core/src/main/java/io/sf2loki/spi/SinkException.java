package io.sf2loki.spi;

import java.util.OptionalInt;

/** Base of the {@link Sink} failures; see the subtypes for the caller's next move. */
public abstract class SinkException extends Exception {

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
