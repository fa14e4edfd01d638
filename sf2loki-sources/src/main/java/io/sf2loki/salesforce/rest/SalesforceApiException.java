package io.sf2loki.salesforce.rest;

/**
 * A Salesforce REST call failed. The subtype tells the caller's next move: {@link
 * ThrottledException} stops the cycle, the others skip the object or file until the next poll.
 * Messages name the call and never carry a token.
 */
public abstract sealed class SalesforceApiException extends Exception
    permits ThrottledException, ApiErrorException, TransportException, MalformedResponseException {

  private static final long serialVersionUID = 1L;

  SalesforceApiException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A short reason for metrics: {@code HTTP 404}, {@code transport}, {@code malformed}, ... */
  public abstract String reason();
}
