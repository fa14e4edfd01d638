package io.sf2loki.spi;

import java.util.Objects;

/**
 * Campaigning failed: the lease could not be read or written (a file lease on an unwritable or
 * unreachable directory, a Kubernetes API server answering 403 or 5xx). Thrown by {@link
 * Coordinator#run} while no term is held; the engine backs off and campaigns again with a fresh
 * coordinator, or ends the process when the failure is permanent. Failures while a term is held are
 * the coordinator's own business (it keeps leading while its last renewal is younger than the
 * lease's duration, then gives the term up).
 */
public class CoordinatorException extends RuntimeException implements ClassifiedFailure {

  private static final long serialVersionUID = 1L;

  private final FailureClass failure;

  /**
   * @param message what failed, naming the lease, never a credential
   * @param failure transient or permanent, with the reason ({@code lease_...}) and the fix
   */
  public CoordinatorException(String message, Throwable cause, FailureClass failure) {
    super(message, cause);
    this.failure = Objects.requireNonNull(failure, "failure");
  }

  @Override
  public FailureClass failureClass() {
    return failure;
  }
}
