package io.sf2loki.salesforce.soql;

/** A value refused before it could reach a query: the message names what it was meant to be. */
public final class InvalidSoqlValueException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  InvalidSoqlValueException(String what, String value) {
    super(what + " '" + shorten(value) + "' is not valid in SOQL");
  }

  private static String shorten(String value) {
    String v = String.valueOf(value);
    return v.length() <= 64 ? v : v.substring(0, 64) + "...";
  }
}
