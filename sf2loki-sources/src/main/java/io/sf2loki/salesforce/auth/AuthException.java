package io.sf2loki.salesforce.auth;

import java.util.Optional;

/**
 * Minting a token failed. Carries the HTTP status and Salesforce's {@code error} / {@code
 * error_description} when the token endpoint answered, never a credential.
 */
public final class AuthException extends Exception {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final String error;

  /**
   * @param status the token endpoint's HTTP status, 0 for transport failures
   * @param error Salesforce's {@code error} code, empty when none
   * @param message a message that names the login host and never a secret
   */
  public AuthException(int status, String error, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.error = error == null ? "" : error;
  }

  /** The HTTP status; 0 when the endpoint was never reached. */
  public int status() {
    return status;
  }

  /** Salesforce's {@code error} code ({@code invalid_grant}, {@code invalid_client}, ...). */
  public Optional<String> error() {
    return error.isEmpty() ? Optional.empty() : Optional.of(error);
  }
}
