package io.sf2loki.spi;

/**
 * The backend refuses this process, and trying again cannot help: access denied (401/403, EACCES,
 * EPERM, rejected or missing credentials), a read-only or full file system, a path whose parent is
 * a file, a missing bucket, a request the service rejects as configured. Permanent: the engine
 * tries a few times, then the process exits 1 with one line naming the resource and the fix (see
 * {@link #failureClass()}).
 */
public class StoreAccessDeniedException extends StoreException {

  private static final long serialVersionUID = 1L;

  /**
   * @param failure a permanent class: the reason ({@code store_access_denied}, {@code
   *     store_read_only}, {@code store_missing_bucket}, ...), the resource and the fix
   */
  public StoreAccessDeniedException(String message, Throwable cause, FailureClass failure) {
    super(message, cause, requirePermanent(failure));
  }

  private static FailureClass requirePermanent(FailureClass failure) {
    if (!failure.isPermanent()) {
      throw new IllegalArgumentException("an access-denied failure is permanent: " + failure);
    }
    return failure;
  }
}
