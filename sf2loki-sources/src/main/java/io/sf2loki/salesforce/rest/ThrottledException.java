package io.sf2loki.salesforce.rest;

/** 403 {@code REQUEST_LIMIT_EXCEEDED}: the org's API limit is spent; wait for the next cycle. */
public final class ThrottledException extends SalesforceApiException {

  private static final long serialVersionUID = 1L;

  public ThrottledException(String message) {
    super(message, null);
  }

  @Override
  public String reason() {
    return "throttled";
  }
}
