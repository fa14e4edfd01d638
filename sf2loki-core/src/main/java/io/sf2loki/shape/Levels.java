package io.sf2loki.shape;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code level} structured metadata value, from the first matching rule: an error/exception
 * field present → {@code error}; a 3-digit {@code STATUS_CODE} (≥500 error, ≥400 warn, else info);
 * {@code REQUEST_STATUS}; {@code LOGIN_STATUS}; {@code OPERATION_STATUS} then {@code Status};
 * otherwise {@code info}. Empty, {@code 0}, {@code none}, {@code null}, {@code na} and {@code n/a}
 * count as absent.
 */
public final class Levels {

  private static final List<String> ERROR_FIELDS =
      List.of("EXCEPTION_MESSAGE", "EXCEPTION_TYPE", "ERROR_MESSAGE", "ERROR_CODE");
  private static final Set<String> ABSENT = Set.of("", "0", "none", "null", "na", "n/a");
  private static final Set<String> SUCCESS =
      Set.of("s", "success", "successful", "ok", "complete", "completed", "true");

  private Levels() {}

  /** {@code error}, {@code warn} or {@code info} for {@code payload}. */
  public static String of(Map<String, Object> payload) {
    for (String f : ERROR_FIELDS) {
      if (present(payload, f)) {
        return "error";
      }
    }
    String status = text(payload, "STATUS_CODE");
    if (isStatusCode(status)) {
      int code = Integer.parseInt(status);
      return code >= 500 ? "error" : code >= 400 ? "warn" : "info";
    }
    if (present(payload, "REQUEST_STATUS")) {
      return success(payload, "REQUEST_STATUS");
    }
    if (present(payload, "LOGIN_STATUS")) {
      return "LOGIN_NO_ERROR".equals(text(payload, "LOGIN_STATUS")) ? "info" : "warn";
    }
    for (String f : List.of("OPERATION_STATUS", "Status")) {
      if (present(payload, f)) {
        return success(payload, f);
      }
    }
    return "info";
  }

  /**
   * {@code [1-9][0-9]{2}}, by hand: {@code String.matches} compiled the pattern for every event
   * (docs/performance.md §4).
   */
  private static boolean isStatusCode(String s) {
    return s.length() == 3
        && s.charAt(0) >= '1'
        && s.charAt(0) <= '9'
        && isDigit(s.charAt(1))
        && isDigit(s.charAt(2));
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static String success(Map<String, Object> payload, String field) {
    return SUCCESS.contains(text(payload, field).toLowerCase(Locale.ROOT)) ? "info" : "warn";
  }

  private static boolean present(Map<String, Object> payload, String field) {
    return !ABSENT.contains(text(payload, field).toLowerCase(Locale.ROOT));
  }

  private static String text(Map<String, Object> payload, String field) {
    return Payloads.text(payload, field).strip();
  }
}
