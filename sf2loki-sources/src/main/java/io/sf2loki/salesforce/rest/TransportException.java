package io.sf2loki.salesforce.rest;

/** The call never completed: connect failure, timeout, or a body broken mid-stream. */
public final class TransportException extends SalesforceApiException {

  private static final long serialVersionUID = 1L;

  public TransportException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public String reason() {
    return "transport";
  }
}
