package io.sf2loki.spi;

/**
 * The backend lacks a guarantee the configured topology depends on, such as an S3-compatible
 * endpoint that ignores conditional writes under a lease coordinator: writing would let two writers
 * silently overwrite each other. Permanent: only an operator (another endpoint or topology) fixes
 * it, so the process stops rather than retries. The message names the location and the fix.
 */
public class StoreUnsafeException extends StoreException {

  private static final long serialVersionUID = 1L;

  public StoreUnsafeException(String message) {
    super(message);
  }

  /** Permanent ({@code store_unsafe}): the fix is another endpoint or topology. */
  @Override
  protected FailureClass defaultClass() {
    return FailureClass.permanent(
        "store_unsafe",
        "",
        "use an endpoint that honours conditional writes, or another topology, as the message says");
  }
}
