package io.sf2loki.spi;

/**
 * The backend could not be read or written after the store's own retries (I/O error, disk full,
 * 5xx, timeout). The message names the location and the operation.
 *
 * <p>Transient by default ({@code store_unavailable}); a thrower that classified the cause as
 * permanent throws a {@link StoreAccessDeniedException} instead ({@link
 * StoreException#classified}).
 */
public class StoreUnavailableException extends StoreException {

  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message) {
    super(message);
  }

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * @param failure what this failure is; null for this type's default
   */
  public StoreUnavailableException(String message, Throwable cause, FailureClass failure) {
    super(message, cause, failure);
  }

  @Override
  protected FailureClass defaultClass() {
    return FailureClass.transientFailure("store_unavailable", "");
  }
}
