package io.sf2loki.salesforce.auth;

import io.sf2loki.spi.ClassifiedFailure;
import io.sf2loki.spi.FailureClass;
import java.util.Optional;
import java.util.Set;

/**
 * Minting a token failed. Carries the HTTP status and Salesforce's {@code error} / {@code
 * error_description} when the token endpoint answered, never a credential.
 *
 * <p>{@code invalid_client} and {@code invalid_grant} (wrong client id or secret, a key or user the
 * connected app does not accept) are permanent: no retry mints a token until an operator fixes the
 * credentials, so the sources let them end their run and the engine gives up after its attempts.
 * Everything else (5xx, transport errors, other answers) is transient.
 */
public final class AuthException extends Exception implements ClassifiedFailure {

  private static final long serialVersionUID = 1L;

  /** The OAuth errors no retry can fix. */
  static final Set<String> PERMANENT_ERRORS = Set.of("invalid_client", "invalid_grant");

  /**
   * The {@code error} codes counted under their own name; any other is counted as {@code other}.
   */
  private static final Set<String> COUNTED_ERRORS =
      Set.of(
          "invalid_client",
          "invalid_grant",
          "invalid_client_id",
          "invalid_request",
          "unsupported_grant_type",
          "malformed_response");

  private final int status;
  private final String error;
  private final String description;

  /**
   * @param status the token endpoint's HTTP status, 0 for transport failures
   * @param error Salesforce's {@code error} code, empty when none
   * @param message a message that names the login host and never a secret
   */
  public AuthException(int status, String error, String message, Throwable cause) {
    this(status, error, "", message, cause);
  }

  /**
   * @param status the token endpoint's HTTP status, 0 for transport failures
   * @param error Salesforce's {@code error} code, empty when none
   * @param description Salesforce's {@code error_description}, empty when none
   * @param message a message that names the login host and never a secret
   */
  public AuthException(
      int status, String error, String description, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.error = error == null ? "" : error;
    this.description = description == null ? "" : description;
  }

  /** The HTTP status; 0 when the endpoint was never reached. */
  public int status() {
    return status;
  }

  /** Salesforce's {@code error} code ({@code invalid_grant}, {@code invalid_client}, ...). */
  public Optional<String> error() {
    return error.isEmpty() ? Optional.empty() : Optional.of(error);
  }

  /** Salesforce's {@code error_description} ({@code user hasn't approved this consumer}, ...). */
  public Optional<String> description() {
    return description.isEmpty() ? Optional.empty() : Optional.of(description);
  }

  /** True when the token endpoint rejected the credentials ({@code invalid_client/grant}). */
  public boolean isPermanent() {
    return PERMANENT_ERRORS.contains(error);
  }

  /** True when the token endpoint was not reached or failed itself (a 5xx): a retry may succeed. */
  public boolean unreachable() {
    return status == 0 || status >= 500;
  }

  /**
   * The {@code reason} of {@code sf2loki_auth_errors}: the OAuth {@code error} code when it is one
   * Salesforce documents, {@code transport} when the endpoint was not reached, {@code server_error}
   * for a 5xx, else {@code other} (a bounded set, whatever a server sends).
   */
  public String metricReason() {
    if (COUNTED_ERRORS.contains(error)) {
      return error;
    }
    if (status == 0) {
      return "transport";
    }
    return status >= 500 ? "server_error" : "other";
  }

  /**
   * Permanent {@code auth_rejected} for {@code invalid_client}/{@code invalid_grant}, else
   * transient {@code auth_unavailable}.
   */
  @Override
  public FailureClass failureClass() {
    if (isPermanent()) {
      return FailureClass.permanent(
          "auth_rejected",
          "the Salesforce token endpoint",
          "Salesforce answered "
              + error
              + ": check salesforce.client_id and the credentials (client_secret, or username"
              + " and private_key for jwt_bearer), and that the connected app admits the user");
    }
    return FailureClass.transientFailure("auth_unavailable", "the Salesforce token endpoint");
  }
}
