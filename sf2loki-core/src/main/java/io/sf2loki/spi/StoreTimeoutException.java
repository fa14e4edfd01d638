package io.sf2loki.spi;

/**
 * A store call did not finish within its deadline: the file store's file system did not answer
 * within {@code state.file.io_timeout} (a hung NFS or EFS mount), and the call was abandoned.
 * Transient, like every {@link StoreUnavailableException}: whether the abandoned write landed is
 * unknown, so the caller retries later from a fresh read. The message names the path, the operation
 * and the deadline.
 */
public class StoreTimeoutException extends StoreUnavailableException {

  private static final long serialVersionUID = 1L;

  public StoreTimeoutException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Transient ({@code store_timeout}). */
  @Override
  protected FailureClass defaultClass() {
    return FailureClass.transientFailure("store_timeout", "");
  }
}
