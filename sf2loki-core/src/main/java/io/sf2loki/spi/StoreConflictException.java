package io.sf2loki.spi;

/**
 * Another writer changed the document between this store's read and its conditional write (S3 ETag
 * or GCS generation mismatch). Handled as a loss of exclusivity: stop the term, {@link
 * CheckpointStore#reset()}, reload on the next acquire.
 *
 * <p>Transient ({@code store_conflict}).
 */
public class StoreConflictException extends StoreException {

  private static final long serialVersionUID = 1L;

  public StoreConflictException(String message) {
    super(message);
  }

  public StoreConflictException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  protected FailureClass defaultClass() {
    return FailureClass.transientFailure("store_conflict", "");
  }
}
