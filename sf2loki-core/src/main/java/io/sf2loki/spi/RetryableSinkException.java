package io.sf2loki.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * The batch was not accepted but may be later: 429, 5xx, transport errors, and 401/403/404
 * (misconfiguration must not lose data). The caller retries the same batch after a backoff, no
 * shorter than {@link #retryAfter()} when the server asked for one.
 */
public class RetryableSinkException extends SinkException {

  private static final long serialVersionUID = 1L;

  private final Duration retryAfter;

  /**
   * @param status the HTTP status, or 0 for a transport error
   * @param retryAfter the server's {@code Retry-After}, or null
   */
  public RetryableSinkException(String message, int status, Duration retryAfter, Throwable cause) {
    super(message, status, cause);
    this.retryAfter = retryAfter;
  }

  /** The delay the server asked for, when it sent {@code Retry-After}. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** Transient ({@code sink_unavailable}). */
  @Override
  public FailureClass failureClass() {
    return FailureClass.transientFailure("sink_unavailable", "");
  }
}
