package io.sf2loki.salesforce.rest;

/** A non-2xx answer other than a throttle (400 MALFORMED_QUERY, 404, 500, a second 401, ...). */
public final class ApiErrorException extends SalesforceApiException {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final String body;

  public ApiErrorException(String what, int status, String body) {
    super(what + " failed: " + status + " " + body, null);
    this.status = status;
    this.body = body;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The (bounded) response body, Salesforce's error array as sent. */
  public String body() {
    return body;
  }

  @Override
  public String reason() {
    return "HTTP " + status;
  }
}
