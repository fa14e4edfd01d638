package io.sf2loki.spi;

import java.util.Objects;

/**
 * An {@link OrgSession} could not log in. It says what it is ({@link #failureClass()}): a token
 * endpoint that did not answer is transient, rejected credentials are permanent. The message names
 * the login host and never a credential (invariant 8).
 */
public final class OrgLoginException extends Exception implements ClassifiedFailure {

  private static final long serialVersionUID = 1L;

  private final FailureClass failure;

  /**
   * @param message what failed, naming the login host, never a secret
   * @param failure transient or permanent, with the reason and the fix
   * @param cause the token endpoint's or the identity service's failure
   */
  public OrgLoginException(String message, FailureClass failure, Throwable cause) {
    super(message, cause);
    this.failure = Objects.requireNonNull(failure, "failure");
  }

  @Override
  public FailureClass failureClass() {
    return failure;
  }
}
