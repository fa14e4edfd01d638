package io.sf2loki.state.internal;

/** A classified object-store failure: what the conditional-write loop does next depends on it. */
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

  public BackendException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
