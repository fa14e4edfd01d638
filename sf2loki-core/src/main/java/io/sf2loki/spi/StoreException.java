package io.sf2loki.spi;

/**
 * Base of the checkpoint-store failures. Subtypes tell the caller its next move: {@link
 * FencedException} and {@link StoreConflictException} end the leadership term, {@link
 * CorruptStateException} needs an operator, {@link StoreUnavailableException} is worth a later
 * retry, {@link StoreLockedException} means another instance runs. Messages name the location and
 * never contain credentials (invariant 8).
 */
public class StoreException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public StoreException(String message) {
    super(message);
  }

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
