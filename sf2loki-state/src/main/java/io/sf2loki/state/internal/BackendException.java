package io.sf2loki.state.internal;

import io.sf2loki.spi.FailureClass;
import java.util.Objects;

/**
 * A classified object-store failure: what the conditional-write loop does next depends on its
 * {@link Kind}, and what the engine does once the loop gives up on its {@link FailureClass}.
 */
public final class BackendException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** How the loop reacts. */
  public enum Kind {
    /** 412 (or S3's 409 ConditionalRequestConflict): re-read and decide. */
    PRECONDITION_FAILED,
    /** 5xx, throttling, resets, timeouts: retried with jittered backoff. */
    TRANSIENT,
    /** Anything else (403, 400, ...): surfaced at once. */
    PERMANENT
  }

  private final Kind kind;
  private final FailureClass failure;

  /**
   * @param failure what the failure is for the engine once surfaced: permanent for access denied or
   *     a missing bucket, transient for an outage (and for a call cancelled by an interrupt, which
   *     is not retried but is no operator's business)
   */
  public BackendException(Kind kind, String message, Throwable cause, FailureClass failure) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.failure = Objects.requireNonNull(failure, "failure");
  }

  public Kind kind() {
    return kind;
  }

  /** What the failure is for the engine. */
  public FailureClass failureClass() {
    return failure;
  }
}
