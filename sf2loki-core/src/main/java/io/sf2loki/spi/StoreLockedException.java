package io.sf2loki.spi;

/**
 * Another process holds the single-instance lock of the state file: another sf2loki instance is
 * probably running against the same state.
 */
public class StoreLockedException extends StoreException {

  private static final long serialVersionUID = 1L;

  public StoreLockedException(String message) {
    super(message);
  }

  public StoreLockedException(String message, Throwable cause) {
    super(message, cause);
  }
}
