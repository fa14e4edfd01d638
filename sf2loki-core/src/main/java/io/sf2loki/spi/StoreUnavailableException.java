package io.sf2loki.spi;

/**
 * The backend could not be read or written after the store's own retries (I/O error, disk full,
 * 5xx, timeout). The message names the location and the operation.
 */
public class StoreUnavailableException extends StoreException {

  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message) {
    super(message);
  }

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
