package io.sf2loki.salesforce.rest;

/** A 2xx whose body is not what the endpoint promises (not JSON, an array, no records). */
public final class MalformedResponseException extends SalesforceApiException {

  private static final long serialVersionUID = 1L;

  public MalformedResponseException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public String reason() {
    return "malformed";
  }
}
