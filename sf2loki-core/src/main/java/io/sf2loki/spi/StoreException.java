package io.sf2loki.spi;

/**
 * Base of the checkpoint-store failures. Subtypes tell the caller its next move: {@link
 * FencedException} and {@link StoreConflictException} end the leadership term, {@link
 * CorruptStateException} needs an operator, {@link StoreAccessDeniedException} is permanent (only
 * an operator can fix it), {@link StoreUnavailableException} is worth a later retry, {@link
 * StoreLockedException} means another instance runs. Every one says what it is as a {@link
 * FailureClass}: a thrower that knows better (the file store knows whether its lock is held for a
 * lifetime or a moment) passes one; otherwise each subtype has its own. Messages name the location
 * and never contain credentials (invariant 8).
 */
public class StoreException extends RuntimeException implements ClassifiedFailure {

  private static final long serialVersionUID = 1L;

  private final FailureClass failure;

  public StoreException(String message) {
    this(message, null, null);
  }

  public StoreException(String message, Throwable cause) {
    this(message, cause, null);
  }

  /**
   * @param failure what this failure is; null for the subtype's default ({@link #defaultClass})
   */
  public StoreException(String message, Throwable cause, FailureClass failure) {
    super(message, cause);
    this.failure = failure;
  }

  /**
   * The store exception that says {@code failure}: a {@link StoreAccessDeniedException} when it is
   * permanent, else a {@link StoreUnavailableException}.
   */
  public static StoreException classified(String message, Throwable cause, FailureClass failure) {
    return failure.isPermanent()
        ? new StoreAccessDeniedException(message, cause, failure)
        : new StoreUnavailableException(message, cause, failure);
  }

  @Override
  public final FailureClass failureClass() {
    return failure != null ? failure : defaultClass();
  }

  /**
   * What this failure is when the thrower did not say; the resource is left empty for the engine to
   * name its store. A plain store exception is transient ({@code store_error}).
   */
  protected FailureClass defaultClass() {
    return FailureClass.transientFailure("store_error", "");
  }
}
